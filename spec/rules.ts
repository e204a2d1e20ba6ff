import { describeAjvError } from './ajv.js';
import { keptSchemaValidator } from './kept-validators.js';
import { specFile } from './paths.js';
import { readYamlFile, SpecFileError } from './yaml-file.js';

export type RuleLevel = 'documented' | 'profile' | 'advisory';

export interface Rule {
  readonly id: string;
  readonly section: string;
  /** The document's own words; each occurs verbatim in the API document. */
  readonly quote: readonly string[];
  readonly statement: string;
  readonly level: RuleLevel;
  /**
   * The date the rule's behaviour entered the API: a date of the document's revision table
   * (part 9; spec/revisions.ts), the /v2 release for rules older than the table.
   */
  readonly since: string;
  /** For profile rules: the profile field (dotted path) that decides the expectation. */
  readonly profile?: string;
  /** Profile fields (dotted paths) the target must declare or offer for the rule to be checkable. */
  readonly needs: readonly string[];
  readonly operations: readonly string[];
}

export const RULE_ID_PATTERN = /^[a-z][a-z0-9-]*(\.[a-z0-9][a-z0-9-]*){2,}$/;

export const catalogueSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['rules'],
  properties: {
    rules: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['id', 'section', 'quote', 'statement', 'level', 'since', 'operations'],
        properties: {
          id: { type: 'string', pattern: RULE_ID_PATTERN.source },
          section: { type: 'string', minLength: 3 },
          quote: {
            anyOf: [
              { type: 'string', minLength: 3 },
              { type: 'array', minItems: 1, items: { type: 'string', minLength: 3 } },
            ],
          },
          statement: { type: 'string', minLength: 10, pattern: '\\.$' },
          level: { enum: ['documented', 'profile', 'advisory'] },
          since: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' },
          profile: { type: 'string', pattern: '^[a-z_]+(\\.[a-z_]+)*$' },
          needs: { type: 'array', items: { type: 'string' }, uniqueItems: true },
          operations: { type: 'array', minItems: 1, items: { type: 'string' }, uniqueItems: true },
        },
        if: { type: 'object', properties: { level: { const: 'profile' } } },
        // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then/else, not a thenable
        then: { type: 'object', required: ['profile'], properties: { profile: true } },
        else: { type: 'object', not: { type: 'object', required: ['profile'], properties: { profile: true } } },
      },
    },
  },
} as const;

let cached: readonly Rule[] | undefined;

/** The rule catalogue, validated against its own schema; ids are unique. */
export function loadRules(path = specFile('rules.yaml')): readonly Rule[] {
  if (cached && path === specFile('rules.yaml')) return cached;
  // Checked against its schema once per run: the kit's workers read the same text again.
  const data = readYamlFile(path, {
    name: 'rule-catalogue',
    run(parsed) {
      const validate = keptSchemaValidator(catalogueSchema);
      if (!validate(parsed)) {
        const lines = (validate.errors ?? []).map((e) => describeAjvError(e, parsed));
        throw new SpecFileError(`${path}: invalid rule catalogue:\n  ${lines.join('\n  ')}`);
      }
    },
  });
  const raw = (data as { rules: Array<Record<string, unknown>> }).rules;
  const seen = new Set<string>();
  const rules = raw.map((entry): Rule => {
    const id = entry.id as string;
    if (seen.has(id)) throw new SpecFileError(`${path}: duplicate rule id ${id}`);
    seen.add(id);
    const quote = entry.quote as string | string[];
    return Object.freeze({
      id,
      section: entry.section as string,
      quote: Object.freeze(Array.isArray(quote) ? [...quote] : [quote]),
      statement: entry.statement as string,
      level: entry.level as RuleLevel,
      since: entry.since as string,
      ...(entry.profile === undefined ? {} : { profile: entry.profile as string }),
      needs: Object.freeze([...((entry.needs as string[] | undefined) ?? [])]),
      operations: Object.freeze([...(entry.operations as string[])]),
    });
  });
  const frozen = Object.freeze(rules);
  if (path === specFile('rules.yaml')) cached = frozen;
  return frozen;
}

export function rulesById(rules: readonly Rule[] = loadRules()): ReadonlyMap<string, Rule> {
  return new Map(rules.map((r) => [r.id, r]));
}

/** The report area of a rule: its first id segment (notes, collections, membership, ...). */
export function ruleArea(id: string): string {
  return id.split('.')[0]!;
}

/** Every rule id and every dotted prefix of one (notes, notes.create, ...): what --only and --area take. */
export function ruleSelectors(rules: readonly Rule[] = loadRules()): string[] {
  const all = new Set<string>();
  for (const { id } of rules) {
    const parts = id.split('.');
    for (let n = 1; n <= parts.length; n++) all.add(parts.slice(0, n).join('.'));
  }
  return [...all].sort();
}

/**
 * The one reading of `--only`: a rule is selected when no selection is given, or when a
 * selection entry is its id or a dotted prefix of it (`notes.create` selects
 * `notes.create.id-honoured`, not `notes.created-x`).
 */
export function selectedByOnly(id: string, only: readonly string[]): boolean {
  return only.length === 0 || only.some((p) => id === p || id.startsWith(`${p}.`));
}
