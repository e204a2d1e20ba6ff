import { setTimeout as sleep } from 'node:timers/promises';
import type { Exchange } from '../core/client.js';
import { nameCandidates, responseShapeCandidates, type ShapeCandidate, snippetFieldCandidates } from './candidates.js';
import { type Finding, isObserved, notObserved, observed, type RefusalSample } from './findings.js';
import { CONTENT_KINDS, type ContentKind, type ProbeNotes } from './probe-data.js';
import type { ProbeSession } from './session.js';
import { resultIds } from './titles-and-order.js';
import { confirmed, failedAnswer, firstConfirmed, notConfirmed, sameSet, type Trial, which } from './trials.js';

/**
 * The names of GET /v2/notes and POST /v2/notes/search the document does not show, each confirmed
 * by its effect on the probe's four notes: a filter keeps exactly the notes it should, content
 * appears when asked for, a cursor moves to the next page.
 */

export type ContainsSlot = 'contains_open_tasks' | 'contains_tasks' | 'contains_images' | 'contains_files';
export const CONTAINS_SLOTS: readonly ContainsSlot[] = [
  'contains_open_tasks',
  'contains_tasks',
  'contains_images',
  'contains_files',
];
/** The probe notes each contains filter keeps. */
const KEEPS: Record<ContainsSlot, ContentKind[]> = {
  contains_open_tasks: ['open'],
  contains_tasks: ['open', 'done'],
  contains_images: ['image'],
  contains_files: ['file'],
};

export type NotesListSlot = 'cursor' | 'collection' | ContainsSlot | 'include_content';
export type NotesSearchSlot = 'collections' | ContainsSlot | 'response_shape';
export type ResponseShapeField = 'include_content' | 'include_snippet';

export interface NotesNameFindings {
  list: Record<NotesListSlot, Finding<string>>;
  search: Record<NotesSearchSlot, Finding<string>>;
  /** The fields inside the response-shape object. */
  responseShapeFields: Record<ResponseShapeField, Finding<string>>;
  /** Refusals of a cursor reused with another order_by and another filter. */
  cursorMismatch: RefusalSample[];
  cursorMismatchWhy?: string;
}

/** The probe notes (by kind) among an answer's results. */
function ours(notes: ProbeNotes, x: Exchange): ContentKind[] {
  const ids = resultIds(x);
  return CONTENT_KINDS.filter((k) => ids.includes(notes.byKind[k].id));
}

/**
 * The contains filter named as its confirmed sibling is (`has_open_tasks` -> `has_images`), tried
 * first: the four filters of one target follow one convention.
 */
function siblingOf(found: Partial<Record<ContainsSlot, Finding<string>>>, slot: ContainsSlot): string | undefined {
  const word = (k: ContainsSlot) => k.slice('contains_'.length);
  for (const other of CONTAINS_SLOTS) {
    const f = found[other];
    if (other === slot || !isObserved(f)) continue;
    // Longest word first: "open_tasks" holds "tasks".
    const from = word(other);
    if (f.value.includes(from) && !(from === 'tasks' && f.value.includes('open_tasks')))
      return f.value.replace(from, word(slot));
  }
  return undefined;
}

function keptExactly(notes: ProbeNotes, x: Exchange, expected: ContentKind[], what: string): Trial {
  const failed = failedAnswer(x);
  if (failed) return notConfirmed(failed);
  const kept = ours(notes, x);
  const words = (kinds: ContentKind[]) =>
    which(
      kinds.map((k) => `${k} note`),
      'probe notes',
    );
  if (sameSet(kept, expected)) return confirmed(`${what} kept ${words(expected)} of the four probe notes`);
  return notConfirmed(`kept ${words(kept)} (expected ${words(expected)})`);
}

/** Whether every probe note in the answer carries its content (the word every probe note holds). */
function contentShown(notes: ProbeNotes, x: Exchange): Trial {
  const failed = failedAnswer(x);
  if (failed) return notConfirmed(failed);
  const results = ((x.json as { results?: unknown[] } | undefined)?.results ?? []) as Array<Record<string, unknown>>;
  const mine = results.filter((r) => CONTENT_KINDS.some((k) => notes.byKind[k].id === r?.id));
  if (mine.length === 0) return notConfirmed('listed none of the probe notes');
  if (mine.every((r) => typeof r.content === 'string' && r.content.includes(notes.word)))
    return confirmed(`each probe note came with its content (${mine.length} of them)`);
  return notConfirmed('the probe notes came without their content');
}

/** The collection the open-task note is in, or why the probe has none (the target refused to create one). */
export type ProbeCollection = string | { readonly why: string };

export async function probeNotesNames(
  s: ProbeSession,
  notes: ProbeNotes,
  collection: ProbeCollection,
  unknownRefused: boolean,
): Promise<NotesNameFindings> {
  const window = {
    filter_by_created_after: new Date(notes.start).toISOString(),
    filter_by_created_before: new Date(notes.end).toISOString(),
  };
  const list = (extra: Record<string, string | number | boolean>) =>
    s.attempt('listNotes', { method: 'GET', path: '/v2/notes', query: { ...window, limit: 10, ...extra } });
  const found = {} as NotesNameFindings['list'];
  found.collection =
    typeof collection === 'string'
      ? await firstConfirmed(
          s,
          nameCandidates('notes_list.collection'),
          (n) => `${n}=<collection>`,
          async (n) => keptExactly(notes, await list({ [n]: collection }), ['open'], 'the collection filter'),
        )
      : notObserved(collection.why);
  for (const slot of CONTAINS_SLOTS) {
    found[slot] = await firstConfirmed(
      s,
      nameCandidates(`notes_list.${slot}`, [siblingOf(found, slot)]),
      (n) => `${n}=true`,
      async (n) => keptExactly(notes, await list({ [n]: true }), KEEPS[slot], 'the filter'),
    );
  }
  found.include_content = await firstConfirmed(
    s,
    nameCandidates('notes_list.include_content'),
    (n) => `${n}=true`,
    async (n) => contentShown(notes, await list({ [n]: true })),
  );
  const cursor = await probeCursor(s, notes, list);
  found.cursor = cursor.finding;
  const { search, responseShapeFields } = await probeSearchNames(s, notes, collection, found, unknownRefused);
  return {
    list: found,
    search,
    responseShapeFields,
    cursorMismatch: cursor.mismatch,
    ...(cursor.mismatchWhy ? { cursorMismatchWhy: cursor.mismatchWhy } : {}),
  };
}

type List = (extra: Record<string, string | number | boolean>) => Promise<Exchange>;

/**
 * The cursor: a first page of one note (ordered by created_at) and its next_page, sent back under
 * each candidate: the one that serves another probe note advances. With it, the same cursor
 * reused with another order_by and another filter, as the kit's check does (cursor_mismatch).
 */
async function probeCursor(
  s: ProbeSession,
  notes: ProbeNotes,
  list: List,
): Promise<{ finding: Finding<string>; mismatch: RefusalSample[]; mismatchWhy?: string }> {
  const page = { order_by: 'created_at', limit: 1 };
  const needCursor = 'provoking it needs the list cursor, which the probe could not confirm';
  if (!s.affords(2))
    return {
      finding: notObserved("the probe's requests ran out before the cursor"),
      mismatch: [],
      mismatchWhy: needCursor,
    };
  const first = await list(page);
  const next = (first.json as { next_page?: unknown } | undefined)?.next_page;
  const firstKind = ours(notes, first)[0];
  if (failedAnswer(first) || typeof next !== 'string' || firstKind === undefined) {
    const why = `the first page of the four probe notes with limit 1 ${failedAnswer(first) ?? 'had no next_page'}`;
    return { finding: notObserved(why), mismatch: [], mismatchWhy: needCursor };
  }
  const finding = await firstConfirmed(
    s,
    nameCandidates('notes_list.cursor'),
    (n) => `${n}=<next_page>`,
    async (n) => {
      const x = await list({ ...page, [n]: next });
      const failed = failedAnswer(x);
      if (failed) return notConfirmed(failed);
      const second = ours(notes, x)[0];
      if (second === undefined) return notConfirmed('served none of the probe notes');
      if (second === firstKind) return notConfirmed('served the first page again');
      return confirmed(
        `the first page (limit 1) held the ${firstKind} note, the next_page sent back the ${second} note`,
      );
    },
  );
  if (!isObserved(finding)) return { finding, mismatch: [], mismatchWhy: needCursor };
  if (!s.affords(2)) return { finding, mismatch: [], mismatchWhy: "the probe's requests ran out before it" };
  const reuse = { [finding.value]: next };
  const otherOrder = await list({ ...page, ...reuse, order_by: 'updated_at' });
  const otherFilter = await list({
    ...page,
    ...reuse,
    filter_by_created_before: new Date(notes.end + 2_500).toISOString(),
  });
  return {
    finding,
    mismatch: [
      { kind: 'cursor_mismatch', what: 'a list cursor reused with another order_by', x: otherOrder },
      { kind: 'cursor_mismatch', what: 'a list cursor reused with another filter_by_created_before', x: otherFilter },
    ],
  };
}

/** Searches for the probe notes' word until all four show (a search index may lag writes): at most 6 requests. */
async function searchShowsAll(s: ProbeSession, notes: ProbeNotes): Promise<string | undefined> {
  let wait = 200;
  let last: Exchange | undefined;
  for (let i = 0; i < 6 && s.affords(1); i++) {
    last = await s.attempt('searchNotes', {
      method: 'POST',
      path: '/v2/notes/search',
      query: { limit: 20 },
      json: { query: notes.word },
    });
    if (failedAnswer(last)) return `a search for the probe notes' word ${failedAnswer(last)}`;
    if (ours(notes, last).length === CONTENT_KINDS.length) return undefined;
    await sleep(wait);
    wait *= 2;
  }
  return `a search for the probe notes' word showed ${last ? ours(notes, last).length : 0} of the four (polled for about 6 s)`;
}

async function probeSearchNames(
  s: ProbeSession,
  notes: ProbeNotes,
  collection: ProbeCollection,
  listNames: NotesNameFindings['list'],
  unknownRefused: boolean,
): Promise<Pick<NotesNameFindings, 'search' | 'responseShapeFields'>> {
  const slots: NotesSearchSlot[] = ['collections', ...CONTAINS_SLOTS, 'response_shape'];
  const unseen = s.affords(3) ? await searchShowsAll(s, notes) : "the probe's requests ran out before search";
  if (unseen)
    return {
      search: Object.fromEntries(slots.map((k) => [k, notObserved(unseen)])) as NotesNameFindings['search'],
      responseShapeFields: { include_content: notObserved(unseen), include_snippet: notObserved(unseen) },
    };
  const search: Search = (extra) =>
    s.attempt('searchNotes', {
      method: 'POST',
      path: '/v2/notes/search',
      query: { limit: 20 },
      json: { query: notes.word, ...extra },
    });
  const found = {} as NotesNameFindings['search'];
  found.collections =
    typeof collection === 'string'
      ? await firstConfirmed(
          s,
          nameCandidates('notes_search.collections'),
          (n) => `${n}: [<collection>]`,
          async (n) => keptExactly(notes, await search({ [n]: [collection] }), ['open'], 'the collection filter'),
        )
      : notObserved(collection.why);
  for (const slot of CONTAINS_SLOTS) {
    // The list's name first: a target tends to name a filter alike in both places.
    const listName = listNames[slot];
    found[slot] = await firstConfirmed(
      s,
      nameCandidates(`notes_search.${slot}`, [
        isObserved(listName) ? listName.value : undefined,
        siblingOf(found, slot),
      ]),
      (n) => `${n}: true`,
      async (n) => keptExactly(notes, await search({ [n]: true }), KEEPS[slot], 'the filter'),
    );
  }
  const shape = await probeResponseShape(s, notes, search, unknownRefused);
  found.response_shape = shape.object;
  return { search: found, responseShapeFields: shape.fields };
}

type Search = (extra: Record<string, unknown>) => Promise<Exchange>;

/**
 * The response-shape object and the fields inside it (neither is shown): each candidate object is
 * sent with its include-content field until content appears, which confirms both names (a target
 * that refuses unknown fields refuses a wrong inner one). include_snippet has no effect to see (the
 * document gives every result a snippet), so only a target that refuses unknown fields confirms it,
 * by accepting it.
 */
async function probeResponseShape(
  s: ProbeSession,
  notes: ProbeNotes,
  search: Search,
  unknownRefused: boolean,
): Promise<{ object: Finding<string>; fields: NotesNameFindings['responseShapeFields'] }> {
  const shape = await firstConfirmed<ShapeCandidate>(
    s,
    responseShapeCandidates(),
    (c) => `${c.object}: {${c.field}: true}`,
    async (c) => {
      const x = await search({ [c.object]: { [c.field]: true } });
      const shown = contentShown(notes, x);
      if ('how' in shown) return confirmed(`asked for content: ${shown.how}`);
      // Without content, acceptance proves the names only where unknown fields are refused.
      if (unknownRefused && !failedAnswer(x))
        return confirmed('accepted (200) where the target refuses unknown body fields (see unknown_fields)');
      return shown;
    },
  );
  if ('why' in shape) {
    const why = notObserved<string>(shape.why);
    return { object: why, fields: { include_content: why, include_snippet: why } };
  }
  const { object, field } = shape.value;
  const snippet = unknownRefused
    ? await firstConfirmed(
        s,
        snippetFieldCandidates(field.replace('content', 'snippet')),
        (n) => `${object}: {${n}: true}`,
        async (n) => {
          const failed = failedAnswer(await search({ [object]: { [n]: true } }));
          return failed
            ? notConfirmed(failed)
            : confirmed('accepted (200) where the target refuses unknown body fields (see unknown_fields)');
        },
      )
    : notObserved<string>(
        'every search result carries a snippet (the document lists it in every item), so asking for one shows ' +
          'nothing, and the target ignores unknown fields (see unknown_fields): no answer could confirm a name',
      );
  return {
    object: observed(object, shape.how),
    fields: {
      include_content: observed(field, `confirmed with ${object} (see response_shape)`),
      include_snippet: snippet,
    },
  };
}
