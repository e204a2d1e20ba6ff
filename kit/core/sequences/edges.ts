import { randomUUID } from 'node:crypto';
import { LIMITS } from '../../../spec/limits.js';
import { primaryName } from '../../../spec/profile.js';
import { isCreateCapReached } from '../../../spec/verdicts.js';
import { linksOf } from '../behaviour/outcomes.js';
import type { KnownCollection, KnownNote } from '../behaviour/state.js';
import type { Exchange } from '../client.js';
import type { OpOf } from './ops.js';
import { currentVersion, deletedOf, iso, isTrashed, pickCollection, pickNote, type Runner } from './runner.js';

/**
 * Requests at the edges of what the document allows, sent now and then among the model's
 * commands: what it refuses (values just past each size limit, required fields left out, wrong
 * types, timestamps without offset, in the future or on days that do not exist, limits and offsets
 * out of range, blank queries, operations on notes and collections the run deleted, membership
 * changes naming them), what stands exactly on a limit, and the timestamp defaults after supplied
 * times. The command judges nothing itself: the run's oracle (kit/core/oracle/inputs.ts,
 * input-judge.ts, state-refusals.ts, note-writes.ts) judges every answer, whoever sent it, and a
 * refused create is read back by its id so that the oracle sees whether it made something. The
 * model changes only where the target accepted what it must refuse.
 */
type Needs =
  | 'none'
  | 'note'
  | 'server-created-note'
  | 'collection'
  | 'deleted-note'
  | 'deleted-collection'
  | 'linked-note'
  /** An active note, a collection, whose created_at the run supplied or set: a whole millisecond, known exactly. */
  | 'exact-note'
  | 'exact-collection';

const EXACT_NOTE = new Set(['notes.create.created-at-honoured', 'notes.set-created-at.applied']);

interface Target {
  note?: string;
  collection?: string;
}

interface Kind {
  readonly needs: Needs;
  /** What the profile must declare for the request to be sent at all (a name the document does not show). */
  readonly declares?: string;
  send(run: Runner, target: Target): Promise<Exchange | undefined>;
}

const DAY = 86_400_000;
const LIMIT = LIMITS;

/** A string of `chars` characters of `fill` after `head` (cut to fit when the head is longer). */
function sized(head: string, chars: number, fill: string): string {
  const n = chars - [...head].length;
  return n <= 0 ? head.slice(0, chars) : head + fill.repeat(n);
}

/** Note content of `chars` characters: a title line and the run's marker first, like every note of the run. */
function content(run: Runner, chars: number, fill: string): string {
  return sized(run.content(`Bad ${run.word()}`), chars, fill);
}

/** `head` then two-byte characters to one or two bytes past `bytes` (the head counts: it is ASCII). */
function pastBytes(head: string, bytes: number): string {
  return head + 'é'.repeat(Math.floor((bytes - Buffer.byteLength(head)) / 2) + 1);
}

/** A short note content (a title line and the marker). */
const plain = (run: Runner) => run.content(`Bad ${run.word()}`);

/** Emoji content of exactly `bytes` UTF-8 bytes (an emoji is four bytes, one character). */
function emojiContent(run: Runner, bytes: number): string {
  const head = run.content(`Edge ${run.word()}`);
  const room = bytes - Buffer.byteLength(head);
  return head + '😀'.repeat(Math.floor(room / 4)) + 'a'.repeat(room % 4);
}

/** Well in the past whatever the clock difference the profile allows. */
const past = (run: Runner) => Date.now() - 2 * run.clock.toleranceMs - DAY;
/** Well in the future whatever the clock difference the profile allows. */
const future = (run: Runner) => Date.now() + 2 * run.clock.toleranceMs + DAY;
/** The instant written with a fixed offset (`+14:00`, `-05:00`), as the document allows. */
function withOffset(ms: number, hours: number): string {
  const local = new Date(ms + hours * 3_600_000).toISOString().slice(0, 19);
  const sign = hours < 0 ? '-' : '+';
  return `${local}${sign}${String(Math.abs(hours)).padStart(2, '0')}:00`;
}
const NO_OFFSET = '2020-02-02T10:00:00';
const NO_SUCH_DAY = '2019-02-30T10:00:00Z';

/** A note create with a fresh id; when refused, the id is read back (the oracle sees whether it exists). */
async function createNote(run: Runner, body: Record<string, unknown>, readBack = true): Promise<Exchange> {
  const id = randomUUID();
  const x = await run.api.createNote({ id, ...body });
  if (x.status >= 400 && readBack) await run.api.getNote(id);
  // Accepted: the note is no model note (its input was not plain); it goes at once (a 200,000-byte note
  // kept would weigh on every later list page).
  else if (x.status >= 200 && x.status < 300) await run.api.deleteNote(id);
  return x;
}

async function createCollection(run: Runner, body: Record<string, unknown>, readBack = true): Promise<Exchange> {
  const id = randomUUID();
  const x = await run.api.createCollection({ id, ...body });
  if (x.status >= 400 && readBack) await run.api.getCollection(id);
  else if (x.status >= 200 && x.status < 300) await run.api.deleteCollection(id);
  return x;
}

const title = (run: Runner) => `Bad ${run.word()}`;
const query = (run: Runner) => pickNote(run, 0)?.content?.value.split(/\s+/)[1] || run.word();

export const EDGE_INPUTS = {
  // ---- note create: refused, and nothing under the id ----
  'note-content-past-chars': {
    needs: 'none',
    send: (run) => createNote(run, { content: content(run, LIMIT.noteContentCreate.chars + 1, 'a') }),
  },
  'note-content-past-bytes': {
    needs: 'none',
    // Two-byte characters after the ASCII head: within the character limit, one byte past the byte limit.
    send: (run) =>
      createNote(run, {
        content: pastBytes(run.content(`Bad ${run.word()}`), LIMIT.noteContentCreate.bytes),
      }),
  },
  'note-content-missing': { needs: 'none', send: (run) => createNote(run, {}) },
  'note-content-number': { needs: 'none', send: (run) => createNote(run, { content: 42 }) },
  'note-created-at-future': {
    needs: 'none',
    send: (run) => createNote(run, { content: plain(run), created_at: iso(future(run)) }),
  },
  'note-created-at-future-west': {
    needs: 'none',
    send: (run) => createNote(run, { content: plain(run), created_at: withOffset(future(run), -5) }),
  },
  'note-created-at-no-offset': {
    needs: 'none',
    send: (run) => createNote(run, { content: plain(run), created_at: NO_OFFSET }),
  },
  'note-created-at-no-such-day': {
    needs: 'none',
    send: (run) => createNote(run, { content: plain(run), created_at: NO_SUCH_DAY }),
  },
  'note-updated-at-future': {
    needs: 'none',
    send: (run) => createNote(run, { content: plain(run), updated_at: iso(future(run)) }),
  },
  'note-updated-at-no-offset': {
    needs: 'none',
    send: (run) => createNote(run, { content: plain(run), updated_at: NO_OFFSET }),
  },
  'note-id-not-uuid': {
    needs: 'none',
    send: (run) => run.api.createNote({ id: `model-${run.word()}`, content: plain(run) }),
  },
  'note-title-entry-past-chars': {
    needs: 'none',
    send: (run) =>
      createNote(run, {
        content: plain(run),
        collection_titles: [sized(title(run), LIMIT.collectionTitlesEntry.chars + 1, 'a')],
      }),
  },
  'note-title-entry-past-bytes': {
    needs: 'none',
    send: (run) =>
      createNote(run, {
        content: plain(run),
        collection_titles: [sized('', Math.floor(LIMIT.collectionTitlesEntry.bytes / 2) + 1, 'é')],
      }),
  },
  // "case-insensitive exact match": a collection's title cut short by one character names none.
  'note-title-prefix': {
    needs: 'collection',
    send: async (run, { collection }) => {
      const t = collectionOf(run, collection!).title?.value;
      // ASCII titles only: cutting a character off elsewhere may split a surrogate pair.
      return t && t.length > 1 && /^[\x20-\x7e]+$/.test(t)
        ? createNote(run, { content: plain(run), collection_titles: [t.slice(0, -1)] }, false)
        : undefined;
    },
  },
  // ---- note create: on a boundary, accepted ----
  'note-content-at-bytes': {
    needs: 'none',
    send: (run) => createNote(run, { content: emojiContent(run, LIMIT.noteContentCreate.bytes) }, false),
  },
  'note-title-entry-at-limit': {
    needs: 'none',
    send: (run) =>
      createNote(
        run,
        {
          content: plain(run),
          collection_titles: [sized('', LIMIT.collectionTitlesEntry.bytes / 2, 'é')],
        },
        false,
      ),
  },
  'note-created-at-far-east': {
    needs: 'none',
    send: (run) =>
      createNote(
        run,
        { content: plain(run), created_at: withOffset(Date.now() - 2 * run.clock.toleranceMs - DAY, 14) },
        false,
      ),
  },
  'note-content-trailing-whitespace': {
    needs: 'none',
    // "Exactly the content sent": trailing spaces, a tab and blank lines included, in the answer and a read.
    send: async (run) => {
      const id = randomUUID();
      const x = await run.api.createNote({ id, content: `${plain(run)}  \t\n\n ` });
      if (x.status >= 200 && x.status < 300) {
        await run.api.getNote(id);
        await run.api.deleteNote(id);
      }
      return x;
    },
  },
  // ---- note update, at the note's current version ----
  'update-content-past-chars': {
    needs: 'note',
    send: (run, { note }) =>
      update(run, note!, {
        content: content(run, LIMIT.noteContentUpdate.chars + 1, 'a'),
        version: currentVersion(noteOf(run, note!)),
      }),
  },
  'update-content-missing': {
    needs: 'note',
    send: (run, { note }) => update(run, note!, { version: currentVersion(noteOf(run, note!)) }),
  },
  'update-content-number': {
    needs: 'note',
    send: (run, { note }) => update(run, note!, { content: 42, version: currentVersion(noteOf(run, note!)) }),
  },
  'update-version-missing': {
    needs: 'note',
    send: (run, { note }) => update(run, note!, { content: plain(run) }),
  },
  'update-version-zero': {
    needs: 'note',
    send: (run, { note }) => update(run, note!, { content: plain(run), version: 0 }),
  },
  'update-version-string': {
    needs: 'note',
    send: (run, { note }) =>
      update(run, note!, { content: plain(run), version: String(currentVersion(noteOf(run, note!))) }),
  },
  'update-updated-at-no-offset': {
    needs: 'note',
    send: (run, { note }) =>
      update(run, note!, {
        content: plain(run),
        version: currentVersion(noteOf(run, note!)),
        updated_at: NO_OFFSET,
      }),
  },
  // ---- set-created-at ----
  'backdate-missing': { needs: 'note', send: (run, { note }) => run.api.setCreatedAt(note!, {}) },
  'backdate-no-offset': {
    needs: 'note',
    send: (run, { note }) => run.api.setCreatedAt(note!, { created_at: NO_OFFSET }),
  },
  'backdate-no-such-day': {
    needs: 'note',
    send: (run, { note }) => run.api.setCreatedAt(note!, { created_at: NO_SUCH_DAY }),
  },
  'backdate-to-original': {
    // A note created at the server's time: after a supplied time, "originally created" is open.
    needs: 'server-created-note',
    // Exactly the original creation (the bound is inclusive): accepted, and then it is the created_at.
    send: (run, { note }) => run.api.setCreatedAt(note!, { created_at: iso(noteOf(run, note!).original!) }),
  },
  'backdate-past-original': {
    // Just past the original creation and its precision (still in the past for a note older than
    // that): refused, "it can only backdate".
    needs: 'server-created-note',
    send: (run, { note }) =>
      run.api.setCreatedAt(note!, { created_at: iso(noteOf(run, note!).original! + run.clock.precisionMs + 1) }),
  },
  // ---- collection create ----
  'collection-title-past-chars': {
    needs: 'none',
    send: (run) => createCollection(run, { title: sized(title(run), LIMIT.collectionTitle.chars + 1, 'a') }),
  },
  'collection-title-past-bytes': {
    needs: 'none',
    send: (run) => createCollection(run, { title: sized('', Math.floor(LIMIT.collectionTitle.bytes! / 2) + 1, 'é') }),
  },
  'collection-description-past-chars': {
    needs: 'none',
    send: (run) =>
      createCollection(run, {
        title: title(run),
        description: sized('', LIMIT.collectionDescription.chars + 1, 'a'),
      }),
  },
  'collection-description-past-bytes': {
    needs: 'none',
    send: (run) =>
      createCollection(run, {
        title: title(run),
        description: sized('', Math.floor(LIMIT.collectionDescription.bytes! / 2) + 1, 'é'),
      }),
  },
  'collection-title-missing': { needs: 'none', send: (run) => createCollection(run, { description: 'no title' }) },
  'collection-title-number': { needs: 'none', send: (run) => createCollection(run, { title: 42 }) },
  'collection-nulls': {
    needs: 'none',
    // null where the document allows it ("string or null", "uuid or null"): accepted, an id generated.
    send: async (run) => {
      const x = await run.api.createCollection({
        id: null,
        title: title(run),
        description: null,
        created_at: null,
        updated_at: null,
      });
      const id = (x.json as { id?: unknown } | undefined)?.id;
      if (x.status >= 200 && x.status < 300 && typeof id === 'string') await run.api.deleteCollection(id);
      return x;
    },
  },
  'collection-description-number': {
    needs: 'none',
    send: (run) => createCollection(run, { title: title(run), description: 42 }),
  },
  'collection-created-at-future': {
    needs: 'none',
    send: (run) => createCollection(run, { title: title(run), created_at: iso(future(run)) }),
  },
  'collection-created-at-no-offset': {
    needs: 'none',
    send: (run) => createCollection(run, { title: title(run), created_at: NO_OFFSET }),
  },
  'collection-updated-at-future': {
    needs: 'none',
    send: (run) => createCollection(run, { title: title(run), updated_at: withOffset(future(run), -5) }),
  },
  'collection-updated-at-no-offset': {
    needs: 'none',
    send: (run) => createCollection(run, { title: title(run), updated_at: NO_OFFSET }),
  },
  'collection-id-not-uuid': {
    needs: 'none',
    send: (run) => run.api.createCollection({ id: `model-${run.word()}`, title: title(run) }),
  },
  'collection-at-limits': {
    needs: 'none',
    send: (run) =>
      createCollection(
        run,
        {
          title: sized(title(run), LIMIT.collectionTitle.chars, 'a'),
          description: sized('', LIMIT.collectionDescription.chars, 'a'),
        },
        false,
      ),
  },
  'collection-at-byte-limits': {
    needs: 'none',
    send: (run) =>
      createCollection(
        run,
        {
          title: sized('', LIMIT.collectionTitle.bytes! / 2, 'é'),
          description: sized('', LIMIT.collectionDescription.bytes! / 2, 'é'),
        },
        false,
      ),
  },
  // ---- collection update ----
  'rename-past-chars': {
    needs: 'collection',
    send: (run, { collection }) =>
      rename(run, collection!, { title: sized(title(run), LIMIT.collectionTitle.chars + 1, 'a') }),
  },
  'rename-past-bytes': {
    needs: 'collection',
    send: (run, { collection }) =>
      rename(run, collection!, {
        title: sized('', Math.floor(LIMIT.collectionTitle.bytes! / 2) + 1, 'é'),
      }),
  },
  'describe-past-chars': {
    needs: 'collection',
    send: (run, { collection }) =>
      rename(run, collection!, {
        description: sized('', LIMIT.collectionDescription.chars + 1, 'a'),
      }),
  },
  'describe-past-bytes': {
    needs: 'collection',
    send: (run, { collection }) =>
      rename(run, collection!, {
        description: sized('', Math.floor(LIMIT.collectionDescription.bytes! / 2) + 1, 'é'),
      }),
  },
  'describe-number': {
    needs: 'collection',
    send: (run, { collection }) => rename(run, collection!, { description: 42 }),
  },
  'rename-number': {
    needs: 'collection',
    send: (run, { collection }) => rename(run, collection!, { title: 42 }),
  },
  'rename-updated-at-future': {
    needs: 'collection',
    send: (run, { collection }) => rename(run, collection!, { title: title(run), updated_at: iso(future(run)) }),
  },
  'rename-updated-at-no-offset': {
    needs: 'collection',
    send: (run, { collection }) => rename(run, collection!, { title: title(run), updated_at: NO_OFFSET }),
  },
  'rename-at-limits': {
    needs: 'collection',
    send: (run, { collection }) =>
      rename(run, collection!, {
        title: sized(title(run), LIMIT.collectionTitle.chars, 'a'),
        description: sized('', LIMIT.collectionDescription.bytes! / 2, 'é'),
      }),
  },
  // ---- note list ----
  'list-limit-zero': { needs: 'none', send: (run) => run.api.listNotes({ limit: 0, created_after: run.since }) },
  'list-limit-past': {
    needs: 'none',
    send: (run) => run.api.listNotes({ limit: LIMIT.notesListLimit.max + 1, created_after: run.since }),
  },
  'list-limit-fraction': {
    needs: 'none',
    send: (run) => run.api.listNotes({ limit: 2.5, created_after: run.since }),
  },
  'list-order-by-unknown': {
    needs: 'none',
    send: (run) => run.api.listNotes({ limit: 2, order_by: 'title', created_after: run.since }),
  },
  'list-bound-no-offset': { needs: 'none', send: (run) => run.api.listNotes({ limit: 2, created_after: NO_OFFSET }) },
  'list-limit-max': {
    needs: 'none',
    send: (run) => run.api.listNotes({ limit: LIMIT.notesListLimit.max, created_after: run.since }),
  },
  // ---- collection list ----
  'collections-limit-zero': { needs: 'none', send: (run) => run.api.listCollections({ limit: 0 }) },
  'collections-limit-past': {
    needs: 'none',
    send: (run) => run.api.listCollections({ limit: LIMIT.collectionsListLimit.max + 1 }),
  },
  'collections-limit-fraction': { needs: 'none', send: (run) => run.api.listCollections({ limit: 2.5 }) },
  'collections-order-by-unknown': {
    needs: 'none',
    send: (run) => run.api.listCollections({ limit: 2, order_by: 'title' }),
  },
  'collections-bounds-exact': {
    needs: 'exact-collection',
    declares: 'names.collections_list.created_after',
    // Both bounds at the collection's created_at: inclusive bounds keep it.
    send: async (run, { collection }) => {
      if (!run.declares('names.collections_list.created_before')) return undefined;
      const at = new Date(collectionOf(run, collection!).createdAt!.value).toISOString();
      return run.api.listCollections({ limit: 5, created_after: at, created_before: at });
    },
  },
  'notes-bounds-exact': {
    needs: 'exact-note',
    send: (run, { note }) => {
      const at = new Date(noteOf(run, note!).createdAt!.value).toISOString();
      return run.api.listNotes({ limit: 5, created_after: at, created_before: at });
    },
  },
  'collections-bound-no-offset': {
    needs: 'none',
    declares: 'names.collections_list.created_after',
    send: (run) => run.api.listCollections({ limit: 2, created_after: NO_OFFSET }),
  },
  'notes-cursor-other-order': {
    needs: 'none',
    declares: 'names.notes_list.cursor',
    // A cursor "must be reused with identical filters and order_by": sent with another order it is refused.
    send: async (run) => {
      const first = await run.api.listNotes({ limit: 1, created_after: run.since });
      const next = (first.json as { next_page?: unknown } | undefined)?.next_page;
      if (typeof next !== 'string') return first;
      return run.api.listNotes({ limit: 1, created_after: run.since, order_by: 'created_at', cursor: next });
    },
  },
  'notes-list-default-limit': {
    needs: 'none',
    // Without limit: 50 a page, or every match when fewer (the run's notes, since it began).
    send: (run) => run.api.listNotes({ created_after: run.since }),
  },
  'collections-list-default-limit': { needs: 'none', send: (run) => run.api.listCollections({}) },
  'collections-limit-min': { needs: 'none', send: (run) => run.api.listCollections({ limit: 1 }) },
  'collections-search-bound-no-offset': {
    needs: 'none',
    declares: 'names.collections_search.created_after',
    send: (run) =>
      run.api.searchCollections({
        query: run.declares('names.collections_search.query') ? title(run) : undefined,
        created_after: NO_OFFSET,
      }),
  },
  // ---- note search ----
  'search-limit-zero': {
    needs: 'none',
    send: (run) => run.api.searchNotes({ limit: 0 }, { query: query(run) }),
  },
  'search-limit-past': {
    needs: 'none',
    send: (run) => run.api.searchNotes({ limit: LIMIT.searchLimit.max + 1 }, { query: query(run) }),
  },
  'search-limit-fraction': {
    needs: 'none',
    send: (run) => run.api.searchNotes({ limit: 2.5 }, { query: query(run) }),
  },
  'search-offset-negative': {
    needs: 'none',
    send: (run) => run.api.searchNotes({ offset: -1 }, { query: query(run) }),
  },
  'search-offset-fraction': {
    needs: 'none',
    send: (run) => run.api.searchNotes({ offset: 0.5 }, { query: query(run) }),
  },
  'search-offset-without-snapshot': {
    needs: 'none',
    send: (run) => run.api.searchNotes({ offset: 1 }, { query: query(run) }),
  },
  'search-snapshot-unknown': {
    needs: 'none',
    declares: 'statuses.unknown_snapshot',
    send: (run) => run.api.searchNotes({ limit: 2, offset: 2, snapshot_id: randomUUID() }, { query: query(run) }),
  },
  'search-query-missing': { needs: 'none', send: (run) => run.api.searchNotes({ limit: 5 }, {}) },
  'search-query-number': { needs: 'none', send: (run) => run.api.searchNotes({ limit: 5 }, { query: 42 }) },
  'search-query-blank': { needs: 'none', send: (run) => run.api.searchNotes({ limit: 5 }, { query: ' \t ' }) },
  'search-query-empty': { needs: 'none', send: (run) => run.api.searchNotes({ limit: 5 }, { query: '' }) },
  'search-bound-no-offset': {
    needs: 'none',
    send: (run) => run.api.searchNotes({ limit: 5 }, { query: query(run), created_after: NO_OFFSET }),
  },
  'search-limit-max': {
    needs: 'none',
    send: (run) => run.api.searchNotes({ limit: LIMIT.searchLimit.max }, { query: query(run) }),
  },
  'search-query-padded': {
    needs: 'none',
    send: (run) => run.api.searchNotes({ limit: 5 }, { query: `  ${query(run)} ` }),
  },
  // ---- related notes ----
  'related-limit-zero': { needs: 'note', send: (run, { note }) => run.api.relatedNotes(note!, { limit: 0 }) },
  'related-limit-past': {
    needs: 'note',
    send: (run, { note }) => run.api.relatedNotes(note!, { limit: LIMIT.relatedLimit.max + 1 }),
  },
  'related-limit-fraction': {
    needs: 'note',
    send: (run, { note }) => run.api.relatedNotes(note!, { limit: 2.5 }),
  },
  'related-limit-max': {
    needs: 'note',
    send: (run, { note }) => run.api.relatedNotes(note!, { limit: LIMIT.relatedLimit.max }),
  },
  // ---- timestamp defaults after supplied times (a day back: "server time" cannot be mistaken for it) ----
  'note-updated-at-given-then-updated': {
    needs: 'none',
    // created_at defaults to the updated_at given; an update without updated_at sets server time.
    send: async (run) => {
      const id = randomUUID();
      const x = await run.api.createNote({ id, content: plain(run), updated_at: iso(past(run)) });
      const version = (x.json as { version?: unknown } | undefined)?.version;
      if (x.status !== 200) return x;
      if (typeof version === 'number') await run.api.updateNote(id, { content: plain(run), version });
      await run.api.deleteNote(id);
      return x;
    },
  },
  'note-created-at-given': {
    needs: 'none',
    // updated_at is server time even when created_at is given.
    send: (run) => createNote(run, { content: plain(run), created_at: iso(past(run)) }, false),
  },
  'collection-created-at-given-then-renamed': {
    needs: 'none',
    // updated_at defaults to the created_at given; a PATCH without updated_at sets server time.
    send: async (run) => {
      const id = randomUUID();
      const x = await run.api.createCollection({ id, title: title(run), created_at: iso(past(run)) });
      if (x.status !== 200) return x;
      await run.api.updateCollection(id, { title: title(run) });
      await run.api.deleteCollection(id);
      return x;
    },
  },
  'collection-updated-at-given': {
    needs: 'none',
    // created_at defaults to the updated_at given.
    send: (run) => createCollection(run, { title: title(run), updated_at: iso(past(run)) }, false),
  },
  'update-with-updated-at': {
    needs: 'note',
    // A supplied updated_at becomes the note's (a past one, not before its created_at: the document bounds it neither way).
    send: (run, { note }) => {
      const n = noteOf(run, note!);
      return update(run, note!, {
        content: plain(run),
        version: currentVersion(n),
        updated_at: iso(pastNotBefore(run, n.createdAt?.value)),
      });
    },
  },
  'rename-with-updated-at': {
    needs: 'collection',
    // A supplied updated_at is preserved (a past one, not before the collection's created_at).
    send: (run, { collection }) =>
      rename(run, collection!, {
        title: title(run),
        updated_at: iso(pastNotBefore(run, collectionOf(run, collection!).createdAt?.value)),
      }),
  },
  // ---- what the run deleted, and ids that are none ----
  'deleted-note-read': { needs: 'deleted-note', send: (run, { note }) => run.api.getNote(note!) },
  'deleted-note-update': {
    needs: 'deleted-note',
    send: (run, { note }) => run.api.updateNote(note!, { content: plain(run), version: 1 }),
  },
  'deleted-note-delete': { needs: 'deleted-note', send: (run, { note }) => run.api.deleteNote(note!) },
  'deleted-note-trash': { needs: 'deleted-note', send: (run, { note }) => run.api.trashNote(note!) },
  'deleted-note-backdate': {
    needs: 'deleted-note',
    send: (run, { note }) => run.api.setCreatedAt(note!, { created_at: iso(Date.now() - 400 * DAY) }),
  },
  'deleted-note-related': { needs: 'deleted-note', send: (run, { note }) => run.api.relatedNotes(note!) },
  'deleted-note-restore': {
    needs: 'deleted-note',
    declares: 'endpoints.restore_note',
    send: (run, { note }) => run.api.restoreNote(note!),
  },
  'deleted-collection-read': {
    needs: 'deleted-collection',
    send: (run, { collection }) => run.api.getCollection(collection!),
  },
  'note-titled-deleted-collection': {
    needs: 'deleted-collection',
    // Unmatched titles are ignored: the note is created, in no collection.
    send: (run, { collection }) => {
      const title = collectionOf(run, collection!).title?.value;
      return title === undefined
        ? Promise.resolve(undefined)
        : createNote(run, { content: plain(run), collection_titles: [title] }, false);
    },
  },
  'note-into-deleted-collection': {
    needs: 'deleted-collection',
    // An id that maps to no collection any more is ignored: the note is created, in no collection.
    send: (run, { collection }) => createNote(run, { content: plain(run), collection_ids: [collection] }, false),
  },
  'deleted-collection-update': {
    needs: 'deleted-collection',
    send: (run, { collection }) => run.api.updateCollection(collection!, { title: title(run) }),
  },
  'deleted-collection-delete': {
    needs: 'deleted-collection',
    send: (run, { collection }) => run.api.deleteCollection(collection!),
  },
  'add-deleted-note': {
    needs: 'deleted-note',
    send: async (run, { note }) => {
      const collection = pickCollection(run, 0);
      return collection ? run.api.addToCollection(collection.id, note!) : undefined;
    },
  },
  'add-to-deleted-collection': {
    needs: 'deleted-collection',
    send: async (run, { collection }) => {
      const note = pickNote(run, 0, (n) => !isTrashed(n));
      return note ? run.api.addToCollection(collection!, note.id) : undefined;
    },
  },
  'move-to-deleted-collection': {
    needs: 'linked-note',
    send: async (run, { note, collection }) => {
      const gone = deletedOf(run, 'collections')[0];
      return gone ? run.api.moveNote(collection!, note!, { target_collection_id: gone }) : undefined;
    },
  },
  'linked-note-add-again': {
    needs: 'linked-note',
    // What a second add answers is not shown; after it, collection_ids still names the collection once.
    send: async (run, { note, collection }) => {
      const x = await run.api.addToCollection(collection!, note!);
      await run.api.getNote(note!);
      return x;
    },
  },
  'move-without-target': {
    needs: 'linked-note',
    send: async (run, { note, collection }) => {
      const x = await run.api.moveNote(collection!, note!, {});
      // Accepted, the note may have left the collection: a read shows it.
      if (x.status >= 200 && x.status < 300) await run.api.getNote(note!);
      return x;
    },
  },
  // ---- malformed JSON ----
  'note-create-truncated-json': {
    needs: 'none',
    send: (run) => run.api.raw({ method: 'POST', path: '/v2/notes', raw: `{"content":"${run.word()}"` }),
  },
  'collection-update-not-json': {
    needs: 'collection',
    send: (run, { collection }) =>
      run.api.raw({ method: 'PATCH', path: `/v2/collections/${collection}`, raw: 'title=renamed' }),
  },
  // ---- no credentials ----
  'read-without-credentials': {
    needs: 'note',
    send: (run, { note }) => run.api.raw({ method: 'GET', path: `/v2/notes/${note}`, token: null }),
  },
  'capture-without-credentials': {
    needs: 'none',
    declares: 'names.capture.input',
    send: async (run) => {
      const decl = run.profile.endpoints?.capture;
      const input = primaryName(run.profile.names?.capture?.input);
      if (!decl || input === undefined) return undefined;
      return run.api.raw({
        method: decl.method,
        path: decl.path,
        json: { [input]: `Capture without a token ${run.word()}` },
        token: null,
        op: 'captureNote',
      });
    },
  },
  'list-without-credentials': {
    needs: 'none',
    send: (run) => run.api.raw({ method: 'GET', path: '/v2/notes', query: { limit: 1 }, token: null }),
  },
  'update-without-credentials': {
    needs: 'note',
    send: (run, { note }) =>
      run.api.raw({
        method: 'PATCH',
        path: `/v2/notes/${note}`,
        json: { content: plain(run), version: currentVersion(noteOf(run, note!)) },
        token: null,
      }),
  },
  // ---- a bearer token nobody issued ----
  'read-with-unknown-token': {
    needs: 'note',
    send: (run, { note }) =>
      run.api.raw({ method: 'GET', path: `/v2/notes/${note}`, token: unknownToken(run), unknownToken: true }),
  },
  'list-with-unknown-token': {
    needs: 'none',
    send: (run) =>
      run.api.raw({
        method: 'GET',
        path: '/v2/notes',
        query: { limit: 1 },
        token: unknownToken(run),
        unknownToken: true,
      }),
  },
  'read-note-not-uuid': { needs: 'none', send: (run) => run.api.getNote(`model-${run.word()}`) },
  'read-collection-not-uuid': { needs: 'none', send: (run) => run.api.getCollection(`model-${run.word()}`) },
} as const satisfies Record<string, Kind>;

export type EdgeInputKind = keyof typeof EDGE_INPUTS;
export const EDGE_INPUT_KINDS = Object.keys(EDGE_INPUTS) as EdgeInputKind[];

/** The kinds of edge request the run has not sent yet that the profile lets it send. */
export function unsentEdges(run: Runner): EdgeInputKind[] {
  return EDGE_INPUT_KINDS.filter((which) => {
    const kind: Kind = EDGE_INPUTS[which];
    return (run.edgesSent.get(which) ?? 0) === 0 && (!kind.declares || run.declares(kind.declares));
  });
}

/** What a kind acts on, picked among the sequence's notes and collections (an index, as every operation). */
function targetOf(run: Runner, needs: Needs, index: number): Target | undefined {
  const note = (where: (n: KnownNote) => boolean) => pickNote(run, index, where)?.id;
  const collection = (where: (c: KnownCollection) => boolean = () => true) => pickCollection(run, index, where)?.id;
  const one = (ids: string[]) => (ids.length > 0 ? ids[index % ids.length] : undefined);
  const of = (key: 'note' | 'collection', id: string | undefined) => (id === undefined ? undefined : { [key]: id });
  switch (needs) {
    case 'none':
      return {};
    case 'server-created-note':
      return of(
        'note',
        note((n) => !isTrashed(n) && n.original !== undefined),
      );
    // Active: a trashed note's refusal is another rule's (and the document leaves its order open).
    case 'note':
      return of(
        'note',
        note((n) => !isTrashed(n)),
      );
    case 'collection':
      return of('collection', collection());
    case 'deleted-note':
      return of('note', one(deletedOf(run, 'notes')));
    case 'deleted-collection':
      return of('collection', one(deletedOf(run, 'collections')));
    case 'exact-note':
      return of(
        'note',
        note((n) => !isTrashed(n) && EXACT_NOTE.has(n.createdAt?.rule ?? '')),
      );
    case 'exact-collection':
      return of(
        'collection',
        collection((c) => c.createdAt?.rule === 'collections.create.created-at-honoured'),
      );
    case 'linked-note': {
      const n = pickNote(run, index, (m) => !isTrashed(m) && linksOf(m).length > 0);
      return n ? { note: n.id, collection: linksOf(n)[0]! } : undefined;
    }
  }
}

/**
 * One request of documented bad input (or on a boundary); the oracle judges the answer. Which kind
 * is decided when it runs: the one this check sent least among those the sequence has a target
 * for (kinds that need something it has only now and then first, then from `which` on), so a
 * check's runs send every kind before any twice; `which` alone decides nothing, so a replay with
 * --seed sends the same kinds in the same order.
 */
export async function sendEdge(run: Runner, op: OpOf<'edgeInput'>): Promise<boolean> {
  const start = Math.max(0, EDGE_INPUT_KINDS.indexOf(op.which as EdgeInputKind));
  let best: { which: EdgeInputKind; target: Target; sent: number } | undefined;
  for (let i = 0; i < EDGE_INPUT_KINDS.length; i++) {
    const which = EDGE_INPUT_KINDS[(start + i) % EDGE_INPUT_KINDS.length]!;
    const kind: Kind = EDGE_INPUTS[which];
    // Kinds that need a deleted or linked resource can run only now and then: at equal counts they go first.
    const sent = (run.edgesSent.get(which) ?? 0) + (kind.needs === 'none' ? 0.5 : 0);
    if (best && sent >= best.sent) continue;
    if (kind.declares && !run.declares(kind.declares)) continue;
    const target = targetOf(run, kind.needs, op.index);
    if (target) best = { which, target, sent };
  }
  // Kinds that need nothing always have a target.
  const { which, target } = best!;
  run.edgesSent.set(which, (run.edgesSent.get(which) ?? 0) + 1);
  const on = [target.note, target.collection].filter(Boolean).join(', ');
  const line = run.steps.push(`SendEdgeInput(${which}${on ? ` on ${on}` : ''})`) - 1;
  try {
    const x = await EDGE_INPUTS[which].send(run, target);
    if (x) run.steps[line] += ` -> ${x.status}`;
  } catch (error) {
    // A create the run's cap leaves no room for is simply not sent: the bad input is not worth a note.
    if (!isCreateCapReached(error)) throw error;
  }
  return true;
}

const noteOf = (run: Runner, id: string) => run.world.notes.get(id)!;
const collectionOf = (run: Runner, id: string) => run.world.collections.get(id)!;
const update = (run: Runner, id: string, body: Record<string, unknown>) => run.api.updateNote(id, body);
const rename = (run: Runner, id: string, body: Record<string, unknown>) => run.api.updateCollection(id, body);
/** A past instant, not before `floorMs` (the document bounds a supplied updated_at neither way). */
const pastNotBefore = (run: Runner, floorMs: number | undefined) =>
  Math.max(floorMs ?? 0, Date.now() - (run.clock.toleranceMs * 2 + 1000));

/** A bearer token of the shape of a key that no target issued, made up for the request. */
function unknownToken(run: Runner): string {
  return `nc-unknown-${run.word()}-${run.word()}`;
}
