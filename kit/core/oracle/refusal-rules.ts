import { charCount, LIMITS } from '../../../spec/limits.js';
import { readDateTime } from '../../../spec/patterns.js';
import type { KnownCollection, KnownNote } from '../behaviour/state.js';
import { ms } from './compare.js';
import { type Observation, objectOf } from './observation.js';

const MAX_CONTENT = LIMITS.noteContentUpdate.chars;
const MAX_TITLE = LIMITS.collectionTitle.chars;
const MAX_DESCRIPTION = LIMITS.collectionDescription.chars;
/** A supplied timestamp that is not a date-time with a designator ("must have offset"). */
const offsetless = (v: unknown) => typeof v === 'string' && readDateTime(v) === undefined;

const chars = charCount;
const bytes = (s: string) => Buffer.byteLength(s, 'utf8');

/** Who refused what: another token's user meets isolation, a fixture user the permission rules. */
function permissionRule(o: Observation, owner: string, isolated: string, permission: string): string | undefined {
  if (o.actor === owner) return undefined;
  return o.actor.startsWith('user:') || owner.startsWith('user:') ? permission : isolated;
}

/**
 * The rule a refused write of a known note stands under: why the target may refuse it, as far as the
 * request shows. A later answer that shows the refused request's effect breaks this rule.
 */
export function noteRefusalRule(op: string, n: KnownNote, o: Observation): string {
  const body = objectOf(o.body);
  if (op === 'updateNote') {
    return (
      permissionRule(o, n.owner, 'auth.scope.notes-isolated', 'notes.update.requires-edit') ??
      (n.trashed?.value ? 'notes.update.trashed-refused' : undefined) ??
      (!('content' in body) ? 'notes.update.content-required' : undefined) ??
      (!('version' in body) ? 'notes.update.version-required' : undefined) ??
      (typeof body.content !== 'string' || !Number.isInteger(body.version) ? 'notes.update.field-types' : undefined) ??
      ((body.version as number) < 1 ? 'notes.update.version-min-1' : undefined) ??
      (chars(body.content as string) > MAX_CONTENT ? 'notes.update.content-max-chars' : undefined) ??
      (offsetless(body.updated_at) ? 'notes.update.updated-at-offset-required' : undefined) ??
      (n.version && body.version !== n.version.value
        ? (body.version as number) < n.version.value
          ? 'notes.update.version-stale-refused'
          : 'notes.update.version-ahead-refused'
        : undefined) ??
      'notes.update.content-replaced'
    );
  }
  if (op === 'setNoteCreatedAt') {
    const sent = ms(body.created_at);
    return (
      permissionRule(o, n.owner, 'auth.scope.notes-isolated', 'notes.set-created-at.requires-owner') ??
      (n.trashed?.value ? 'notes.set-created-at.trashed-refused' : undefined) ??
      (!('created_at' in body) ? 'notes.set-created-at.required' : undefined) ??
      (offsetless(body.created_at) ? 'notes.set-created-at.offset-required' : undefined) ??
      (sent !== undefined && sent > Date.now() ? 'notes.set-created-at.not-future' : undefined) ??
      (sent !== undefined && n.original !== undefined && sent > n.original
        ? 'notes.set-created-at.backdate-only'
        : undefined) ??
      'notes.set-created-at.applied'
    );
  }
  if (op === 'trashNote')
    return (
      permissionRule(o, n.owner, 'auth.scope.notes-isolated', 'notes.trash.requires-edit') ??
      'notes.trash.sets-trashed-at'
    );
  if (op === 'deleteNote')
    return (
      permissionRule(o, n.owner, 'auth.scope.notes-isolated', 'notes.delete.requires-edit') ?? 'notes.delete.permanent'
    );
  return 'notes.restore.returns-to-active';
}

/** The same for a refused write of a known collection. */
export function collectionRefusalRule(op: string, c: KnownCollection, o: Observation): string {
  const body = objectOf(o.body);
  if (op === 'updateCollection') {
    const title = body.title;
    const description = body.description;
    return (
      permissionRule(o, c.owner, 'auth.scope.collections-isolated', 'collections.update.requires-edit') ??
      (('title' in body && typeof title !== 'string') ||
      ('description' in body && description !== null && typeof description !== 'string')
        ? 'collections.update.field-types'
        : undefined) ??
      (typeof title === 'string' && chars(title) > MAX_TITLE ? 'collections.update.title-max-chars' : undefined) ??
      (typeof title === 'string' && bytes(title) > MAX_TITLE ? 'collections.update.title-max-bytes' : undefined) ??
      (typeof description === 'string' && chars(description) > MAX_DESCRIPTION
        ? 'collections.update.description-max-chars'
        : undefined) ??
      (typeof description === 'string' && bytes(description) > MAX_DESCRIPTION
        ? 'collections.update.description-max-bytes'
        : undefined) ??
      (offsetless(body.updated_at) ? 'collections.update.updated-at-offset-required' : undefined) ??
      ((ms(body.updated_at) ?? 0) > Date.now() ? 'collections.update.updated-at-not-future' : undefined) ??
      'collections.update.fields-applied'
    );
  }
  return (
    permissionRule(o, c.owner, 'auth.scope.collections-isolated', 'collections.delete.requires-edit') ??
    'collections.delete.permanent'
  );
}

/** A refused membership change: which documented refusal it is, as far as the request shows. */
export function membershipRefusalRule(
  op: string,
  o: Observation,
  note: KnownNote | undefined,
  source: KnownCollection | undefined,
  target: KnownCollection | undefined,
): string {
  if (op === 'addNoteToCollection') {
    if (!note || !source || note.deleted || source.deleted) return 'membership.add.missing-refused';
    return (
      permissionRule(o, source.owner, 'membership.add.requires-note-access', 'membership.add.requires-contribute') ??
      permissionRule(o, note.owner, 'membership.add.requires-note-access', 'membership.add.requires-note-access') ??
      'membership.add.links'
    );
  }
  if (op === 'moveNote') {
    const body = objectOf(o.body);
    if (typeof body.target_collection_id !== 'string') return 'membership.move.target-required';
    if (!note || !source || note.deleted || source.deleted) return 'membership.move.missing-refused';
    if (!target || target.deleted) return 'membership.move.failed-add-keeps-source';
    return (
      permissionRule(o, source.owner, 'membership.move.requires-permissions', 'membership.move.requires-permissions') ??
      permissionRule(o, target.owner, 'membership.move.requires-permissions', 'membership.move.requires-permissions') ??
      'membership.move.moves'
    );
  }
  return 'membership.remove.unlinks';
}
