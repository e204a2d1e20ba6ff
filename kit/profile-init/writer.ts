import { Document, isMap, isScalar, isSeq, type Pair, type YAMLMap } from 'yaml';
import { REFUSAL_KINDS } from '../../spec/profile.js';
import { type Finding, type Findings, isObserved, type NameSlots } from './findings.js';

const WIDTH = 118;

/** A map of the profile: its entries in order, and remarks written as comments after them. */
interface Section {
  readonly entries: ReadonlyArray<readonly [string, Finding<unknown> | Section]>;
  readonly notes?: readonly string[];
}
const isSection = (node: Finding<unknown> | Section): node is Section => 'entries' in node;
const hasObserved = (node: Finding<unknown> | Section): boolean =>
  isSection(node) ? node.entries.some(([, n]) => hasObserved(n)) : isObserved(node);

/** Words wrapped into lines of at most `width` characters; later lines indented by two. */
export function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = `  ${word}`;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

/** Comment text for the yaml package: one leading space per line, so that each reads `# text`. */
const asComment = (lines: readonly string[]) => lines.map((l) => (l ? ` ${l}` : '')).join('\n');
const indent = (depth: number) => '  '.repeat(depth);

/** What the probe does not look for at all. */
const NOT_PROBED: readonly string[] = [
  "capabilities.fixtures: only if the target speaks the kit's fixture protocol (spec/profile.schema.json).",
  'budgets: a remote target is paced at 1.5 requests/s within 1,500 requests unless declared here.',
];

export interface WriteMeta {
  /** The profile's name. */
  name: string;
  /** When the probe ran (YYYY-MM-DD). */
  date: string;
}

/** A `names` section: each slot a finding, or a section of its own (an object's fields). */
function slotsSection(slots: NameSlots): Section {
  const isFinding = (node: NameSlots[string]): node is Finding<string> => 'value' in node || 'why' in node;
  return {
    entries: Object.entries(slots).map(
      ([slot, node]) => [slot, isFinding(node) ? node : { entries: Object.entries(node) }] as const,
    ),
  };
}

/** The profile as sections of findings, in the order of spec/profiles/fake.yaml. */
function profileTree(f: Findings, meta: WriteMeta): Section {
  const body = f.errorBody;
  const rl = f.rateLimit;
  const given = (value: string): Finding<string> => ({ value, how: '' });
  return {
    entries: [
      ['name', given(meta.name)],
      [
        'description',
        given(`Inferred by notes-conformance profile init on ${meta.date}; review before relying on it.`),
      ],
      ['statuses', { entries: REFUSAL_KINDS.map((k) => [k, f.statuses[k]] as const) }],
      [
        'error_body',
        {
          // A kind and a message, or a message alone ({"detail": ...}); the kinds need the kind's pointer.
          entries: isObserved(body.kindPointer)
            ? [
                ['kind_pointer', body.kindPointer],
                ['message_pointer', body.messagePointer],
                ['kinds', { entries: Object.entries(body.kinds) }],
              ]
            : [
                ['kind_pointer', body.kindPointer],
                ['message_pointer', body.messagePointer],
              ],
        },
      ],
      [
        'names',
        {
          entries: Object.entries(f.names).map(([section, slots]) => [section, slotsSection(slots)] as const),
        },
      ],
      ['endpoints', { entries: Object.entries(f.endpoints) }],
      ['unknown_fields', f.unknownFields],
      ['title', { entries: [['derivation', f.title]] }],
      ['list_order', f.listOrder],
      ['content_markers', { entries: Object.entries(f.contentMarkers) }],
      ['timestamp_precision_ms', f.timestampPrecisionMs],
      [
        'capabilities',
        {
          entries: [
            ['secondary_token', f.secondaryToken],
            // The kit's header check needs both operations and names.
            [
              'rate_limit_headers',
              {
                entries:
                  isObserved(rl.operations) && isObserved(rl.names)
                    ? [
                        ['operations', rl.operations],
                        ['names', rl.names],
                        ['retry_after', rl.retryAfter],
                      ]
                    : [
                        ['operations', rl.operations],
                        ['retry_after', rl.retryAfter],
                      ],
                notes: rl.notes,
              },
            ],
          ],
        },
      ],
    ],
  };
}

/**
 * Writes the profile with the yaml package's Document API: each observed value carries how it
 * was observed as its comment (inline when it fits, else on the lines above); each value that was
 * not observed is a commented-out key with the reason, in its place, so the file loads as it is
 * and says what is left to fill in.
 */
export function renderProfile(findings: Findings, meta: WriteMeta): string {
  const doc = new Document({});
  const left = findings.leftBehind;
  const cleanup =
    left.length === 0
      ? 'everything the probe created was deleted'
      : `${left.length} note(s) it created could not be deleted (${left.join(', ')})`;
  doc.commentBefore = asComment(
    wrap(
      `Inferred by \`notes-conformance profile init\` from ${findings.target} on ${meta.date} in ` +
        `${findings.requests} requests; ${cleanup}. Each value says how it was observed; ` +
        'commented-out keys were not observed: fill them in where you know them (schema: spec/profile.schema.json).',
      WIDTH,
    ),
  );
  const trailing = renderSection(doc, doc.contents as YAMLMap, profileTree(findings, meta), 0);
  doc.comment = asComment([...trailing, ...(trailing.length > 0 ? [''] : []), ...NOT_PROBED]);
  return doc.toString({ lineWidth: 0, flowCollectionPadding: false });
}

/**
 * Adds a section's observed entries to `map`; placeholders go before the next entry written, or
 * are returned when none follows (the caller writes them after the map).
 */
function renderSection(doc: Document, map: YAMLMap, section: Section, depth: number): string[] {
  let pending: string[] = [];
  for (const [key, node] of section.entries) {
    if (!hasObserved(node)) {
      pending.push(...placeholder(key, node, depth));
      continue;
    }
    const value = isSection(node) ? {} : (node as { value: unknown }).value;
    const pair = doc.createPair(key, value) as Pair<
      { commentBefore?: string | null; spaceBefore?: boolean },
      { comment?: string | null }
    >;
    const before = [...pending];
    pending = [];
    if (isSection(node)) {
      const inner = renderSection(doc, pair.value as unknown as YAMLMap, node, depth + 1);
      if (inner.length > 0) (pair.value as unknown as YAMLMap).comment = asComment(inner);
    } else {
      const how = (node as { how: string }).how;
      if (isSeq(pair.value) || isMap(pair.value)) pair.value.flow = true;
      const line = `${indent(depth)}${key}: ${inline(value)} # ${how}`;
      if (how && line.length <= WIDTH && (isScalar(pair.value) || isSeq(pair.value) || isMap(pair.value)))
        pair.value.comment = ` ${how}`;
      else if (how) before.push(...wrap(how, WIDTH - 2 * depth));
    }
    if (before.length > 0) pair.key!.commentBefore = asComment(before);
    // A blank line between the top-level sections; name and description stay together.
    if (depth === 0 && key !== 'name' && key !== 'description') pair.key!.spaceBefore = true;
    map.items.push(pair as Pair);
  }
  for (const note of section.notes ?? []) pending.push(...wrap(note, WIDTH - 2 * depth));
  return pending;
}

/** A value as it reads on one line: `[a, b]`, `{ method: POST, path: /x }` or the scalar. */
function inline(value: unknown): string {
  if (Array.isArray(value)) return `[${value.join(', ')}]`;
  if (value !== null && typeof value === 'object')
    return `{ ${Object.entries(value)
      .map(([k, v]) => `${k}: ${JSON.stringify(v)}`)
      .join(', ')} }`;
  return String(value);
}

/** A commented-out key: `key: ?  # not observed: why`, or a section's placeholders under `key:`. */
function placeholder(key: string, node: Finding<unknown> | Section, depth: number): string[] {
  if (isSection(node))
    return [`${key}:`, ...node.entries.flatMap(([k, n]) => placeholder(k, n, depth + 1).map((l) => `  ${l}`))];
  const why = 'why' in node ? node.why : '';
  return wrap(`${key}: ?  # not observed: ${why}`, WIDTH - 2 * depth);
}

/** How many keys the written profile leaves commented out, each with the reason it was not observed. */
export function missingKeys(findings: Findings): number {
  const count = (node: Finding<unknown> | Section): number =>
    isSection(node) ? node.entries.reduce((n, [, inner]) => n + count(inner), 0) : isObserved(node) ? 0 : 1;
  return count(profileTree(findings, { name: '', date: '' }));
}
