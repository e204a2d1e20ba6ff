import fc from 'fast-check';
import type { Api } from '../../kit/core/api.js';
import type { RuleId } from '../../spec/rule-ids.js';
import { type CheckContext, checks, type Exchange } from '../harness/index.js';
import { text } from './sizes.js';

const { check } = checks();

interface StringLimit {
  rule: RuleId;
  what: string;
  max: number;
  /** Two-byte characters: the limit is tested in UTF-8 bytes. */
  twoByte: boolean;
  send(
    t: CheckContext,
    value: string,
    target: { note?: { id: string; version: number }; collection?: string },
  ): Promise<Exchange>;
}

const STRING_LIMITS: StringLimit[] = [
  {
    rule: 'notes.create.content-max-chars',
    what: 'note content on create',
    max: 200_000,
    twoByte: false,
    send: (t, v) => t.api.createNote({ content: v }),
  },
  {
    rule: 'notes.create.content-max-bytes',
    what: 'note content on create',
    max: 200_000,
    twoByte: true,
    send: (t, v) => t.api.createNote({ content: v }),
  },
  {
    rule: 'notes.create.collection-titles-max-chars',
    what: 'a collection_titles entry',
    max: 1000,
    twoByte: false,
    send: (t, v) => t.api.createNote({ content: t.data.content('Entry'), collection_titles: [v] }),
  },
  {
    rule: 'notes.create.collection-titles-max-bytes',
    what: 'a collection_titles entry',
    max: 1000,
    twoByte: true,
    send: (t, v) => t.api.createNote({ content: t.data.content('Entry'), collection_titles: [v] }),
  },
  {
    rule: 'collections.create.title-max-chars',
    what: 'a collection title',
    max: 1000,
    twoByte: false,
    send: (t, v) => t.api.createCollection({ title: v }),
  },
  {
    rule: 'collections.create.title-max-bytes',
    what: 'a collection title',
    max: 1000,
    twoByte: true,
    send: (t, v) => t.api.createCollection({ title: v }),
  },
  {
    rule: 'collections.create.description-max-chars',
    what: 'a collection description',
    max: 10_000,
    twoByte: false,
    send: (t, v) => t.api.createCollection({ title: t.data.word(), description: v }),
  },
  {
    rule: 'collections.create.description-max-bytes',
    what: 'a collection description',
    max: 10_000,
    twoByte: true,
    send: (t, v) => t.api.createCollection({ title: t.data.word(), description: v }),
  },
  {
    rule: 'collections.update.title-max-chars',
    what: 'an updated collection title',
    max: 1000,
    twoByte: false,
    send: (t, v, c) => t.api.updateCollection(c.collection!, { title: v }),
  },
  {
    rule: 'collections.update.title-max-bytes',
    what: 'an updated collection title',
    max: 1000,
    twoByte: true,
    send: (t, v, c) => t.api.updateCollection(c.collection!, { title: v }),
  },
  {
    rule: 'collections.update.description-max-chars',
    what: 'an updated description',
    max: 10_000,
    twoByte: false,
    send: (t, v, c) => t.api.updateCollection(c.collection!, { description: v }),
  },
  {
    rule: 'collections.update.description-max-bytes',
    what: 'an updated description',
    max: 10_000,
    twoByte: true,
    send: (t, v, c) => t.api.updateCollection(c.collection!, { description: v }),
  },
];

/**
 * A value around the limit: ASCII max-3..max+3 characters, or two-byte characters around max
 * bytes. Note content gets a short first line (the title) and the run marker, like any note.
 */
function valueAround(t: CheckContext, limit: StringLimit, delta: number, isContent: boolean): string {
  const prefix = isContent ? `Limit ${t.data.word()}\n${t.data.marker}\n` : '';
  if (limit.twoByte) return prefix + 'é'.repeat(Math.floor((limit.max - prefix.length) / 2) + delta);
  return isContent ? prefix + 'a'.repeat(limit.max - prefix.length + delta) : text(t, limit.max + delta);
}

/**
 * The checks that judge a rule at exactly these boundary examples (the limit accepted, one more
 * refused) and also that a refusal creates or changes nothing. Without random runs (the remote
 * defaults: property_runs 0) a property here would only send the same requests again, so it
 * leaves the rule to them; with random runs (the fake, a profile that budgets them) it runs.
 */
const SAME_EXAMPLES_JUDGED_BY: Record<string, string> = {
  'notes.create.content-max-chars': 'limits/note-sizes: note content on create',
  'notes.create.content-max-bytes': 'limits/note-sizes: note content on create',
  'notes.create.collection-titles-max-chars': 'limits/note-sizes: collection_titles entries',
  'notes.create.collection-titles-max-bytes': 'limits/note-sizes: collection_titles entries',
  'collections.create.title-max-chars': 'collections/create: title and description at the limits',
  'collections.create.title-max-bytes': 'collections/create: title and description at the limits',
  'collections.create.description-max-chars': 'collections/create: title and description at the limits',
  'collections.create.description-max-bytes': 'collections/create: title and description at the limits',
  'collections.update.title-max-chars': 'collections/read-update-delete: a PATCH over the limits',
  'collections.update.title-max-bytes': 'collections/read-update-delete: a PATCH over the limits',
  'collections.update.description-max-chars': 'collections/read-update-delete: a PATCH over the limits',
  'collections.update.description-max-bytes': 'collections/read-update-delete: a PATCH over the limits',
  'notes.list.limit-range': 'lists/notes-list: one page of a time window (limits 0, 1, 100, 101, 1.5)',
  'collections.list.limit-range': 'collections/list: limit 1..100 (limits 0, 1, 100, 101, 1.5)',
  'notes.search.limit-range': 'search/notes-search-corpus: pages of one snapshot (limits 0, 1, 50, 51, 1.5)',
  'notes.search.offset-min-0':
    'search/notes-search: the refused searches (offsets -1 and 0.5; offset 0 on every first page)',
  'notes.related.limit-range': 'search/related: related notes limit 1..20 (limits 0, 1, 20, 21, 1.5)',
};

/** Skips a property that, with no random runs budgeted, would repeat another check's requests (named in the reason). */
function skipWhenOnlyRepeating(t: CheckContext, rule: string): void {
  const judgedBy = SAME_EXAMPLES_JUDGED_BY[rule];
  if (judgedBy === undefined || t.budgets.property_runs > 0) return;
  t.skip(`no random runs are budgeted for this target, and the same boundary examples are judged by ${judgedBy}`);
}

for (const limit of STRING_LIMITS) {
  const unit = limit.twoByte ? 'UTF-8 bytes (two-byte characters)' : 'characters';
  // Each length is sent; the oracle judges it accepted within the limit, refused with a 4xx past it.
  check(`${limit.what}: lengths around ${limit.max} ${unit} (property)`, { oracle: [limit.rule] }, async (t) => {
    skipWhenOnlyRepeating(t, limit.rule);
    const target: { note?: { id: string; version: number }; collection?: string } = {};
    if (limit.rule.startsWith('collections.update')) target.collection = (await t.data.collection()).id;
    // ASCII: max-3 .. max+3 characters. Two-byte: around max bytes with 'é', in whole characters.
    // The seven sizes are few enough to send each once, the exact boundary (max accepted, max+1
    // refused) first: that judges every case random draws could reach (they drew 60 of the seven,
    // mostly repeats of 200,000-character bodies), so no random runs are added.
    const deltas = [0, 1, -1, 2, -2, 3, -3];
    const sizes = fc.constantFrom(...deltas);
    const isContent =
      limit.rule === 'notes.create.content-max-chars' || limit.rule === 'notes.create.content-max-bytes';
    await t.property(
      sizes,
      async (delta) => {
        const x = await limit.send(t, valueAround(t, limit, delta, isContent), target);
        // A 200,000-character note is deleted at once: kept until the file ends, a hundred of them
        // would make every later list page of the account tens of megabytes.
        const id = (x.json as { id?: unknown } | undefined)?.id;
        if (isContent && x.status === 200 && typeof id === 'string') await t.api.deleteNote(id);
      },
      0,
      deltas,
    );
  });
}

interface NumericLimit {
  rule: RuleId;
  what: string;
  min: number;
  max?: number;
  send(api: Api, value: number, note: string): Promise<Exchange>;
}

const NUMERIC_LIMITS: NumericLimit[] = [
  {
    rule: 'notes.list.limit-range',
    what: 'note list limit',
    min: 1,
    max: 100,
    send: (api, v) => api.listNotes({ limit: v }),
  },
  {
    rule: 'collections.list.limit-range',
    what: 'collection list limit',
    min: 1,
    max: 100,
    send: (api, v) => api.listCollections({ limit: v }),
  },
  {
    rule: 'notes.search.limit-range',
    what: 'search limit',
    min: 1,
    max: 50,
    send: (api, v) => api.searchNotes({ limit: v }, { query: 'limit' }),
  },
  {
    rule: 'notes.search.offset-min-0',
    what: 'search offset',
    min: 0,
    send: (api, v) => api.searchNotes({ offset: v }, { query: 'offset' }),
  },
  {
    rule: 'notes.related.limit-range',
    what: 'related-notes limit',
    min: 1,
    max: 20,
    send: (api, v, note) => api.relatedNotes(note, { limit: v }),
  },
];

for (const limit of NUMERIC_LIMITS) {
  const range = limit.max === undefined ? `>= ${limit.min}` : `${limit.min}..${limit.max}`;
  // Each value is sent; the oracle judges it accepted in the range (a page no longer than it), refused outside.
  check(`${limit.what}: values around ${range} (property)`, { oracle: [limit.rule] }, async (t) => {
    skipWhenOnlyRepeating(t, limit.rule);
    const note = limit.rule.startsWith('notes.related') ? (await t.data.note()).id : '';
    const edges = [
      limit.min - 1,
      limit.min,
      ...(limit.max === undefined ? [limit.min + 1] : [limit.max, limit.max + 1]),
    ];
    const values = fc.oneof(
      fc.constantFrom(...edges),
      fc.integer({ min: limit.min - 20, max: (limit.max ?? 100) + 20 }),
    );
    await t.property(
      values,
      async (value) => {
        await limit.send(t.api, value, note);
      },
      undefined,
      edges,
    );
    // The document types these parameters as integers: a fraction inside the range is refused too.
    await limit.send(t.api, limit.min + 0.5, note);
  });
}
