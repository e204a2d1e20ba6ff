import type { Rule } from '../../spec/rules.js';

/**
 * The rule of the catalogue a refused (or, under unknown_fields: ignore, a dropped) part of a
 * client's request breaks, from what the fake knows of it: the operation, the kind of refusal, and
 * the field the refusal is about. The fake's refusals carry no rule ids; this reads them the way a
 * developer would look the refusal up in the catalogue: the operation's rules that name the field,
 * narrowed by the words of the message.
 */
export interface Refusal {
  op: string;
  kind: string;
  /** The canonical field the refusal is about, if the service said so. */
  field?: string;
  /** The message as the client read it. */
  message: string;
  /** The request carried an Authorization header. */
  hadToken: boolean;
}

/** Operation id -> the prefix of its rules (openapi.yaml's operationIds; spec/rules.yaml's ids). */
const PREFIX: Record<string, string> = {
  createNote: 'notes.create',
  getNote: 'notes.read',
  updateNote: 'notes.update',
  deleteNote: 'notes.delete',
  setNoteCreatedAt: 'notes.set-created-at',
  listNotes: 'notes.list',
  searchNotes: 'notes.search',
  getRelatedNotes: 'notes.related',
  trashNote: 'notes.trash',
  restoreNote: 'notes.restore',
  captureNote: 'notes.capture',
  createCollection: 'collections.create',
  getCollection: 'collections.read',
  updateCollection: 'collections.update',
  deleteCollection: 'collections.delete',
  listCollections: 'collections.list',
  searchCollections: 'collections.search',
  addNoteToCollection: 'membership.add',
  moveNote: 'membership.move',
  removeNoteFromCollection: 'membership.remove',
};

/** Words of a refusal's message -> the part of a rule id that says the same. */
const MESSAGE_WORDS: ReadonlyArray<readonly [RegExp, string]> = [
  [/future/, 'not-future'],
  [/offset/, 'offset-required'],
  [/UUID/, 'must-be-uuid'],
  [/bytes/, 'max-bytes'],
  [/at most \d+ characters|characters/, 'max-chars'],
  [/between|from \d+ to|at least|at most \d+$/, 'range'],
  [/whitespace|blank|empty/, 'non-whitespace'],
  [/required|missing/, 'required'],
  [/must be a|must be an|expected/, 'field-types'],
];

export class RuleFinder {
  private readonly ids: ReadonlySet<string>;
  private readonly byOp = new Map<string, Rule[]>();

  constructor(rules: readonly Rule[]) {
    this.ids = new Set(rules.map((r) => r.id));
    for (const rule of rules)
      for (const op of rule.operations) this.byOp.get(op)?.push(rule) ?? this.byOp.set(op, [rule]);
  }

  /** The rule a refusal tells the client it broke. */
  refused(r: Refusal): string {
    const prefix = PREFIX[r.op] ?? '';
    const area = prefix.split('.')[0] === 'collections' ? 'collection' : 'note';
    switch (r.kind) {
      case 'conflict':
        // The client sent a create for an id that exists: most often an update meant as an upsert.
        return this.first(`${prefix}.id-conflict-no-upsert`, `${prefix}.id-conflict-409`);
      case 'unauthenticated':
        return r.hadToken ? 'auth.bearer.invalid-refused' : 'auth.bearer.required';
      case 'version_mismatch':
        return 'notes.update.version-stale-refused';
      case 'trashed':
        return this.first(`${prefix}.trashed-refused`, 'errors.status.trashed');
      case 'not_found':
        return this.first(`errors.missing.${area}-refused`);
      case 'forbidden':
        return this.first(...this.named(r.op, /requires-/), 'errors.status.forbidden');
      case 'quota_exceeded':
        return 'quota.create.exceeded-status';
      case 'rate_limited':
        return 'headers.rate-limit.exhausted';
      case 'unknown_snapshot':
        return 'notes.search.snapshot-unknown';
      case 'cursor_mismatch':
        return this.first(`${prefix}.cursor-filter-mismatch`);
      case 'payload_too_large':
        return this.first(
          ...(r.op === 'createNote' ? ['notes.create.content-max-bytes'] : []),
          'errors.bad-input.no-5xx',
        );
      case 'validation':
        return this.invalid(r, prefix);
      default:
        return 'errors.bad-input.no-5xx';
    }
  }

  /** A name the client sent that this endpoint does not have (refused, or dropped under ignore). */
  unknownName(op: string, hint: string | undefined): string {
    const prefix = PREFIX[op] ?? '';
    // A documented query parameter sent in the body (search's limit, offset and snapshot_id).
    if (/query parameter here/.test(hint ?? ''))
      return this.first(`${prefix}.paging-in-query`, `${prefix}.field-types`);
    const meant = /did you mean ([A-Za-z_]+)/.exec(hint ?? '')?.[1];
    if (meant) {
      const rule = this.about(op, meant, '');
      if (rule) return rule;
    }
    return this.first(`${prefix}.parameter-names`, `${prefix}.field-types`, 'errors.bad-input.no-5xx');
  }

  /** A null read as absent in a field the document gives no null (null_fields: absent). */
  nulled(op: string): string {
    return this.first(`${PREFIX[op] ?? ''}.field-types`, 'errors.bad-input.no-5xx');
  }

  /** The rule that names the operation's not-shown parameters (what a client relies on when it uses them). */
  notShown(op: string): string {
    const prefix = PREFIX[op] ?? '';
    return this.first(`${prefix}.parameter-names`, ...this.named(op, /parameter-names|request-id/));
  }

  private invalid(r: Refusal, prefix: string): string {
    const unknown = /^unknown (?:query parameter|field) ([^\s;]+)(?: \(([^)]*)\))?/.exec(r.message);
    if (unknown) return this.unknownName(r.op, unknown[2]);
    const field = r.field ?? /^([A-Za-z_][A-Za-z0-9_.[\]]*)/.exec(r.message)?.[1] ?? '';
    return this.about(r.op, field, r.message) ?? this.first(`${prefix}.field-types`, 'errors.bad-input.no-5xx');
  }

  /** The operation's rule about `field` (its id names it), the one the message's words point at. */
  private about(op: string, field: string, message: string): string | undefined {
    const token = field
      .replace(/\[\d+\]/g, '')
      .split('.')
      .at(-1)!
      .replace(/_/g, '-')
      .replace(/^filter-by-/, '');
    if (token === '') return undefined;
    const candidates = (this.byOp.get(op) ?? []).filter((rule) => rule.id.split('.').at(-1)!.includes(token));
    const types = (this.byOp.get(op) ?? []).find((rule) => rule.id.endsWith('.field-types'));
    for (const [words, part] of MESSAGE_WORDS)
      if (words.test(message)) {
        const hit = candidates.find((rule) => rule.id.endsWith(part) || rule.id.includes(`-${part}`));
        if (hit) return hit.id;
        // "created_at must be a date-time string" (a null, a number): the field's type, not its meaning.
        if (part === 'field-types' && types) return types.id;
      }
    return candidates[0]?.id;
  }

  private named(op: string, pattern: RegExp): string[] {
    return (this.byOp.get(op) ?? []).filter((r) => pattern.test(r.id)).map((r) => r.id);
  }

  /** The first id that is in the catalogue (a fallback chain ends on one that always is). */
  private first(...ids: string[]): string {
    return ids.find((id) => this.ids.has(id)) ?? 'errors.bad-input.no-5xx';
  }
}
