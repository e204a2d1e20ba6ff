import { randomUUID } from 'node:crypto';
import type fc from 'fast-check';
import { collectionUpdated, createdAtSet, learnLinks, noteUpdated } from '../../../kit/core/behaviour/effects.js';
import { linksOf } from '../../../kit/core/behaviour/outcomes.js';
import type { Exchange } from '../../../kit/core/client.js';
import { LIMITS } from '../../../spec/limits.js';
import { primaryName } from '../../../spec/profile.js';
import { isCreateCapReached } from '../../harness/errors.js';
import { pastNotBefore } from '../../harness/patterns.js';
import {
  collectionOf,
  contentOf,
  currentVersion,
  deletedCollections,
  deletedNotes,
  isTrashed,
  type Model,
  noteOf,
  pickCollection,
  pickNote,
} from '../model.js';
import type { Real } from '../real.js';

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
  send(real: Real, model: Model, target: Target): Promise<Exchange | undefined>;
}

const DAY = 86_400_000;
const LIMIT = LIMITS;

/** A string of `chars` characters of `fill` after `head` (cut to fit when the head is longer). */
function sized(head: string, chars: number, fill: string): string {
  const n = chars - [...head].length;
  return n <= 0 ? head.slice(0, chars) : head + fill.repeat(n);
}

/** Note content of `chars` characters: a title line and the run's marker first, like every note of the run. */
function content(real: Real, chars: number, fill: string): string {
  return sized(real.t.data.content(`Bad ${real.t.data.word()}`), chars, fill);
}

/** `head` then two-byte characters to one or two bytes past `bytes` (the head counts: it is ASCII). */
function pastBytes(head: string, bytes: number): string {
  return head + 'é'.repeat(Math.floor((bytes - Buffer.byteLength(head)) / 2) + 1);
}

/** A short note content (a title line and the marker). */
const plain = (real: Real) => real.t.data.content(`Bad ${real.t.data.word()}`);

/** Emoji content of exactly `bytes` UTF-8 bytes (an emoji is four bytes, one character). */
function emojiContent(real: Real, bytes: number): string {
  const head = real.t.data.content(`Edge ${real.t.data.word()}`);
  const room = bytes - Buffer.byteLength(head);
  return head + '😀'.repeat(Math.floor(room / 4)) + 'a'.repeat(room % 4);
}

/** Well in the past whatever the clock difference the profile allows. */
const past = (real: Real) => Date.now() - 2 * real.t.ctx.clockToleranceMs - DAY;
/** Well in the future whatever the clock difference the profile allows. */
const future = (real: Real) => Date.now() + 2 * real.t.ctx.clockToleranceMs + DAY;
const iso = (ms: number) => new Date(ms).toISOString();
/** The instant written with a fixed offset (`+14:00`, `-05:00`), as the document allows. */
function withOffset(ms: number, hours: number): string {
  const local = new Date(ms + hours * 3_600_000).toISOString().slice(0, 19);
  const sign = hours < 0 ? '-' : '+';
  return `${local}${sign}${String(Math.abs(hours)).padStart(2, '0')}:00`;
}
const NO_OFFSET = '2020-02-02T10:00:00';
const NO_SUCH_DAY = '2019-02-30T10:00:00Z';

/** A note create with a fresh id; when refused, the id is read back (the oracle sees whether it exists). */
async function createNote(real: Real, body: Record<string, unknown>, readBack = true): Promise<Exchange> {
  const id = randomUUID();
  const x = await real.api.createNote({ id, ...body });
  if (x.status >= 400 && readBack) await real.api.getNote(id);
  // Accepted: the note is no model note (its input was not plain); it goes at once (a 200,000-byte note
  // kept would weigh on every later list page).
  else if (x.status >= 200 && x.status < 300) await real.api.deleteNote(id);
  return x;
}

async function createCollection(real: Real, body: Record<string, unknown>, readBack = true): Promise<Exchange> {
  const id = randomUUID();
  const x = await real.api.createCollection({ id, ...body });
  if (x.status >= 400 && readBack) await real.api.getCollection(id);
  else if (x.status >= 200 && x.status < 300) await real.api.deleteCollection(id);
  return x;
}

/** An update of an active model note at its current version, with `body` in place of a good one; accepted, the model follows. */
async function updateNote(real: Real, model: Model, id: string, body: Record<string, unknown>): Promise<Exchange> {
  const x = await real.api.updateNote(id, body);
  const r = x.json as { version?: unknown; content?: unknown; title?: unknown; updated_at?: unknown } | undefined;
  if (x.status >= 200 && x.status < 300 && typeof r?.content === 'string') {
    const updated = typeof r.updated_at === 'string' ? Date.parse(r.updated_at) : Number.NaN;
    noteUpdated(
      noteOf(model, id),
      {
        content: r.content,
        ...(typeof r.title === 'string' ? { title: r.title } : {}),
        ...(Number.isInteger(r.version) ? { version: r.version as number } : {}),
        ...(Number.isNaN(updated) ? {} : { updatedAt: updated }),
        suppliedUpdated: body.updated_at != null,
      },
      x,
    );
  }
  return x;
}

/** A collection's title or description that the model keeps when the target accepted it. */
async function updateCollection(real: Real, model: Model, id: string, body: Record<string, unknown>) {
  const x = await real.api.updateCollection(id, body);
  if (x.status >= 200 && x.status < 300 && typeof body.title === 'string') {
    const updated = Date.parse((x.json as { updated_at?: string } | undefined)?.updated_at ?? '');
    collectionUpdated(collectionOf(model, id), body, Number.isNaN(updated) ? undefined : updated, x);
  }
  return x;
}

const title = (real: Real) => `Bad ${real.t.data.word()}`;
const query = (real: Real, model: Model) => {
  const id = pickNote(model, 0);
  return (id && contentOf(noteOf(model, id)).content.split(/\s+/)[1]) || real.t.data.word();
};

export const EDGE_INPUTS = {
  // ---- note create: refused, and nothing under the id ----
  'note-content-past-chars': {
    needs: 'none',
    send: (real) => createNote(real, { content: content(real, LIMIT.noteContentCreate.chars + 1, 'a') }),
  },
  'note-content-past-bytes': {
    needs: 'none',
    // Two-byte characters after the ASCII head: within the character limit, one byte past the byte limit.
    send: (real) =>
      createNote(real, {
        content: pastBytes(real.t.data.content(`Bad ${real.t.data.word()}`), LIMIT.noteContentCreate.bytes),
      }),
  },
  'note-content-missing': { needs: 'none', send: (real) => createNote(real, {}) },
  'note-content-number': { needs: 'none', send: (real) => createNote(real, { content: 42 }) },
  'note-created-at-future': {
    needs: 'none',
    send: (real) => createNote(real, { content: plain(real), created_at: iso(future(real)) }),
  },
  'note-created-at-future-west': {
    needs: 'none',
    send: (real) => createNote(real, { content: plain(real), created_at: withOffset(future(real), -5) }),
  },
  'note-created-at-no-offset': {
    needs: 'none',
    send: (real) => createNote(real, { content: plain(real), created_at: NO_OFFSET }),
  },
  'note-created-at-no-such-day': {
    needs: 'none',
    send: (real) => createNote(real, { content: plain(real), created_at: NO_SUCH_DAY }),
  },
  'note-updated-at-future': {
    needs: 'none',
    send: (real) => createNote(real, { content: plain(real), updated_at: iso(future(real)) }),
  },
  'note-updated-at-no-offset': {
    needs: 'none',
    send: (real) => createNote(real, { content: plain(real), updated_at: NO_OFFSET }),
  },
  'note-id-not-uuid': {
    needs: 'none',
    send: (real) => real.api.createNote({ id: `model-${real.t.data.word()}`, content: plain(real) }),
  },
  'note-title-entry-past-chars': {
    needs: 'none',
    send: (real) =>
      createNote(real, {
        content: plain(real),
        collection_titles: [sized(title(real), LIMIT.collectionTitlesEntry.chars + 1, 'a')],
      }),
  },
  'note-title-entry-past-bytes': {
    needs: 'none',
    send: (real) =>
      createNote(real, {
        content: plain(real),
        collection_titles: [sized('', Math.floor(LIMIT.collectionTitlesEntry.bytes / 2) + 1, 'é')],
      }),
  },
  // ---- note create: on a boundary, accepted ----
  'note-content-at-bytes': {
    needs: 'none',
    send: (real) => createNote(real, { content: emojiContent(real, LIMIT.noteContentCreate.bytes) }, false),
  },
  'note-title-entry-at-limit': {
    needs: 'none',
    send: (real) =>
      createNote(
        real,
        {
          content: plain(real),
          collection_titles: [sized('', LIMIT.collectionTitlesEntry.bytes / 2, 'é')],
        },
        false,
      ),
  },
  'note-created-at-far-east': {
    needs: 'none',
    send: (real) =>
      createNote(
        real,
        { content: plain(real), created_at: withOffset(Date.now() - 2 * real.t.ctx.clockToleranceMs - DAY, 14) },
        false,
      ),
  },
  'note-content-trailing-whitespace': {
    needs: 'none',
    // "Exactly the content sent": trailing spaces, a tab and blank lines included, in the answer and a read.
    send: async (real) => {
      const id = randomUUID();
      const x = await real.api.createNote({ id, content: `${plain(real)}  \t\n\n ` });
      if (x.status >= 200 && x.status < 300) {
        await real.api.getNote(id);
        await real.api.deleteNote(id);
      }
      return x;
    },
  },
  // ---- note update, at the note's current version ----
  'update-content-past-chars': {
    needs: 'note',
    send: (real, model, { note }) =>
      updateNote(real, model, note!, {
        content: content(real, LIMIT.noteContentUpdate.chars + 1, 'a'),
        version: currentVersion(noteOf(model, note!)),
      }),
  },
  'update-content-missing': {
    needs: 'note',
    send: (real, model, { note }) => updateNote(real, model, note!, { version: currentVersion(noteOf(model, note!)) }),
  },
  'update-content-number': {
    needs: 'note',
    send: (real, model, { note }) =>
      updateNote(real, model, note!, { content: 42, version: currentVersion(noteOf(model, note!)) }),
  },
  'update-version-missing': {
    needs: 'note',
    send: (real, model, { note }) => updateNote(real, model, note!, { content: plain(real) }),
  },
  'update-version-zero': {
    needs: 'note',
    send: (real, model, { note }) => updateNote(real, model, note!, { content: plain(real), version: 0 }),
  },
  'update-version-string': {
    needs: 'note',
    send: (real, model, { note }) =>
      updateNote(real, model, note!, { content: plain(real), version: String(currentVersion(noteOf(model, note!))) }),
  },
  'update-updated-at-no-offset': {
    needs: 'note',
    send: (real, model, { note }) =>
      updateNote(real, model, note!, {
        content: plain(real),
        version: currentVersion(noteOf(model, note!)),
        updated_at: NO_OFFSET,
      }),
  },
  // ---- set-created-at ----
  'backdate-missing': { needs: 'note', send: (real, _m, { note }) => real.api.setCreatedAt(note!, {}) },
  'backdate-no-offset': {
    needs: 'note',
    send: (real, _m, { note }) => real.api.setCreatedAt(note!, { created_at: NO_OFFSET }),
  },
  'backdate-no-such-day': {
    needs: 'note',
    send: (real, _m, { note }) => real.api.setCreatedAt(note!, { created_at: NO_SUCH_DAY }),
  },
  'backdate-to-original': {
    // A note created at the server's time: after a supplied time, "originally created" is open.
    needs: 'server-created-note',
    // Exactly the original creation (the bound is inclusive): accepted, and then it is the created_at.
    send: async (real, model, { note }) => {
      const n = noteOf(model, note!);
      const x = await real.api.setCreatedAt(note!, { created_at: iso(n.original!) });
      if (x.status >= 200 && x.status < 300) createdAtSet(n, n.original, x);
      return x;
    },
  },
  // ---- collection create ----
  'collection-title-past-chars': {
    needs: 'none',
    send: (real) => createCollection(real, { title: sized(title(real), LIMIT.collectionTitle.chars + 1, 'a') }),
  },
  'collection-title-past-bytes': {
    needs: 'none',
    send: (real) => createCollection(real, { title: sized('', Math.floor(LIMIT.collectionTitle.bytes! / 2) + 1, 'é') }),
  },
  'collection-description-past-chars': {
    needs: 'none',
    send: (real) =>
      createCollection(real, {
        title: title(real),
        description: sized('', LIMIT.collectionDescription.chars + 1, 'a'),
      }),
  },
  'collection-description-past-bytes': {
    needs: 'none',
    send: (real) =>
      createCollection(real, {
        title: title(real),
        description: sized('', Math.floor(LIMIT.collectionDescription.bytes! / 2) + 1, 'é'),
      }),
  },
  'collection-title-missing': { needs: 'none', send: (real) => createCollection(real, { description: 'no title' }) },
  'collection-title-number': { needs: 'none', send: (real) => createCollection(real, { title: 42 }) },
  'collection-nulls': {
    needs: 'none',
    // null where the document allows it ("string or null", "uuid or null"): accepted, an id generated.
    send: async (real) => {
      const x = await real.api.createCollection({
        id: null,
        title: title(real),
        description: null,
        created_at: null,
        updated_at: null,
      });
      const id = (x.json as { id?: unknown } | undefined)?.id;
      if (x.status >= 200 && x.status < 300 && typeof id === 'string') await real.api.deleteCollection(id);
      return x;
    },
  },
  'collection-description-number': {
    needs: 'none',
    send: (real) => createCollection(real, { title: title(real), description: 42 }),
  },
  'collection-created-at-future': {
    needs: 'none',
    send: (real) => createCollection(real, { title: title(real), created_at: iso(future(real)) }),
  },
  'collection-created-at-no-offset': {
    needs: 'none',
    send: (real) => createCollection(real, { title: title(real), created_at: NO_OFFSET }),
  },
  'collection-updated-at-future': {
    needs: 'none',
    send: (real) => createCollection(real, { title: title(real), updated_at: withOffset(future(real), -5) }),
  },
  'collection-updated-at-no-offset': {
    needs: 'none',
    send: (real) => createCollection(real, { title: title(real), updated_at: NO_OFFSET }),
  },
  'collection-id-not-uuid': {
    needs: 'none',
    send: (real) => real.api.createCollection({ id: `model-${real.t.data.word()}`, title: title(real) }),
  },
  'collection-at-limits': {
    needs: 'none',
    send: (real) =>
      createCollection(
        real,
        {
          title: sized(title(real), LIMIT.collectionTitle.chars, 'a'),
          description: sized('', LIMIT.collectionDescription.chars, 'a'),
        },
        false,
      ),
  },
  'collection-at-byte-limits': {
    needs: 'none',
    send: (real) =>
      createCollection(
        real,
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
    send: (real, model, { collection }) =>
      updateCollection(real, model, collection!, { title: sized(title(real), LIMIT.collectionTitle.chars + 1, 'a') }),
  },
  'rename-past-bytes': {
    needs: 'collection',
    send: (real, model, { collection }) =>
      updateCollection(real, model, collection!, {
        title: sized('', Math.floor(LIMIT.collectionTitle.bytes! / 2) + 1, 'é'),
      }),
  },
  'describe-past-chars': {
    needs: 'collection',
    send: (real, model, { collection }) =>
      updateCollection(real, model, collection!, {
        description: sized('', LIMIT.collectionDescription.chars + 1, 'a'),
      }),
  },
  'describe-past-bytes': {
    needs: 'collection',
    send: (real, model, { collection }) =>
      updateCollection(real, model, collection!, {
        description: sized('', Math.floor(LIMIT.collectionDescription.bytes! / 2) + 1, 'é'),
      }),
  },
  'describe-number': {
    needs: 'collection',
    send: (real, model, { collection }) => updateCollection(real, model, collection!, { description: 42 }),
  },
  'rename-number': {
    needs: 'collection',
    send: (real, model, { collection }) => updateCollection(real, model, collection!, { title: 42 }),
  },
  'rename-updated-at-future': {
    needs: 'collection',
    send: (real, model, { collection }) =>
      updateCollection(real, model, collection!, { title: title(real), updated_at: iso(future(real)) }),
  },
  'rename-updated-at-no-offset': {
    needs: 'collection',
    send: (real, model, { collection }) =>
      updateCollection(real, model, collection!, { title: title(real), updated_at: NO_OFFSET }),
  },
  'rename-at-limits': {
    needs: 'collection',
    send: (real, model, { collection }) =>
      updateCollection(real, model, collection!, {
        title: sized(title(real), LIMIT.collectionTitle.chars, 'a'),
        description: sized('', LIMIT.collectionDescription.bytes! / 2, 'é'),
      }),
  },
  // ---- note list ----
  'list-limit-zero': { needs: 'none', send: (real) => real.api.listNotes({ limit: 0, created_after: real.since }) },
  'list-limit-past': {
    needs: 'none',
    send: (real) => real.api.listNotes({ limit: LIMIT.notesListLimit.max + 1, created_after: real.since }),
  },
  'list-limit-fraction': {
    needs: 'none',
    send: (real) => real.api.listNotes({ limit: 2.5, created_after: real.since }),
  },
  'list-order-by-unknown': {
    needs: 'none',
    send: (real) => real.api.listNotes({ limit: 2, order_by: 'title', created_after: real.since }),
  },
  'list-bound-no-offset': { needs: 'none', send: (real) => real.api.listNotes({ limit: 2, created_after: NO_OFFSET }) },
  'list-limit-max': {
    needs: 'none',
    send: (real) => real.api.listNotes({ limit: LIMIT.notesListLimit.max, created_after: real.since }),
  },
  // ---- collection list ----
  'collections-limit-zero': { needs: 'none', send: (real) => real.api.listCollections({ limit: 0 }) },
  'collections-limit-past': {
    needs: 'none',
    send: (real) => real.api.listCollections({ limit: LIMIT.collectionsListLimit.max + 1 }),
  },
  'collections-limit-fraction': { needs: 'none', send: (real) => real.api.listCollections({ limit: 2.5 }) },
  'collections-order-by-unknown': {
    needs: 'none',
    send: (real) => real.api.listCollections({ limit: 2, order_by: 'title' }),
  },
  'collections-bounds-exact': {
    needs: 'exact-collection',
    declares: 'names.collections_list.created_after',
    // Both bounds at the collection's created_at: inclusive bounds keep it.
    send: async (real, model, { collection }) => {
      if (!real.t.declares('names.collections_list.created_before')) return undefined;
      const at = new Date(collectionOf(model, collection!).createdAt!.value).toISOString();
      return real.api.listCollections({ limit: 5, created_after: at, created_before: at });
    },
  },
  'notes-bounds-exact': {
    needs: 'exact-note',
    send: (real, model, { note }) => {
      const at = new Date(noteOf(model, note!).createdAt!.value).toISOString();
      return real.api.listNotes({ limit: 5, created_after: at, created_before: at });
    },
  },
  'collections-bound-no-offset': {
    needs: 'none',
    declares: 'names.collections_list.created_after',
    send: (real) => real.api.listCollections({ limit: 2, created_after: NO_OFFSET }),
  },
  'notes-cursor-other-order': {
    needs: 'none',
    declares: 'names.notes_list.cursor',
    // A cursor "must be reused with identical filters and order_by": sent with another order it is refused.
    send: async (real) => {
      const first = await real.api.listNotes({ limit: 1, created_after: real.since });
      const next = (first.json as { next_page?: unknown } | undefined)?.next_page;
      if (typeof next !== 'string') return first;
      return real.api.listNotes({ limit: 1, created_after: real.since, order_by: 'created_at', cursor: next });
    },
  },
  'notes-list-default-limit': {
    needs: 'none',
    // Without limit: 50 a page, or every match when fewer (the run's notes, since it began).
    send: (real) => real.api.listNotes({ created_after: real.since }),
  },
  'collections-list-default-limit': { needs: 'none', send: (real) => real.api.listCollections({}) },
  'collections-limit-min': { needs: 'none', send: (real) => real.api.listCollections({ limit: 1 }) },
  'collections-search-bound-no-offset': {
    needs: 'none',
    declares: 'names.collections_search.created_after',
    send: (real) =>
      real.api.searchCollections({
        query: real.t.declares('names.collections_search.query') ? title(real) : undefined,
        created_after: NO_OFFSET,
      }),
  },
  // ---- note search ----
  'search-limit-zero': {
    needs: 'none',
    send: (real, model) => real.api.searchNotes({ limit: 0 }, { query: query(real, model) }),
  },
  'search-limit-past': {
    needs: 'none',
    send: (real, model) => real.api.searchNotes({ limit: LIMIT.searchLimit.max + 1 }, { query: query(real, model) }),
  },
  'search-limit-fraction': {
    needs: 'none',
    send: (real, model) => real.api.searchNotes({ limit: 2.5 }, { query: query(real, model) }),
  },
  'search-offset-negative': {
    needs: 'none',
    send: (real, model) => real.api.searchNotes({ offset: -1 }, { query: query(real, model) }),
  },
  'search-offset-fraction': {
    needs: 'none',
    send: (real, model) => real.api.searchNotes({ offset: 0.5 }, { query: query(real, model) }),
  },
  'search-offset-without-snapshot': {
    needs: 'none',
    send: (real, model) => real.api.searchNotes({ offset: 1 }, { query: query(real, model) }),
  },
  'search-query-missing': { needs: 'none', send: (real) => real.api.searchNotes({ limit: 5 }, {}) },
  'search-query-number': { needs: 'none', send: (real) => real.api.searchNotes({ limit: 5 }, { query: 42 }) },
  'search-query-blank': { needs: 'none', send: (real) => real.api.searchNotes({ limit: 5 }, { query: ' \t ' }) },
  'search-query-empty': { needs: 'none', send: (real) => real.api.searchNotes({ limit: 5 }, { query: '' }) },
  'search-bound-no-offset': {
    needs: 'none',
    send: (real, model) => real.api.searchNotes({ limit: 5 }, { query: query(real, model), created_after: NO_OFFSET }),
  },
  'search-limit-max': {
    needs: 'none',
    send: (real, model) => real.api.searchNotes({ limit: LIMIT.searchLimit.max }, { query: query(real, model) }),
  },
  'search-query-padded': {
    needs: 'none',
    send: (real, model) => real.api.searchNotes({ limit: 5 }, { query: `  ${query(real, model)} ` }),
  },
  // ---- related notes ----
  'related-limit-zero': { needs: 'note', send: (real, _m, { note }) => real.api.relatedNotes(note!, { limit: 0 }) },
  'related-limit-past': {
    needs: 'note',
    send: (real, _m, { note }) => real.api.relatedNotes(note!, { limit: LIMIT.relatedLimit.max + 1 }),
  },
  'related-limit-fraction': {
    needs: 'note',
    send: (real, _m, { note }) => real.api.relatedNotes(note!, { limit: 2.5 }),
  },
  'related-limit-max': {
    needs: 'note',
    send: (real, _m, { note }) => real.api.relatedNotes(note!, { limit: LIMIT.relatedLimit.max }),
  },
  // ---- timestamp defaults after supplied times (a day back: "server time" cannot be mistaken for it) ----
  'note-updated-at-given-then-updated': {
    needs: 'none',
    // created_at defaults to the updated_at given; an update without updated_at sets server time.
    send: async (real) => {
      const id = randomUUID();
      const x = await real.api.createNote({ id, content: plain(real), updated_at: iso(past(real)) });
      const version = (x.json as { version?: unknown } | undefined)?.version;
      if (x.status !== 200) return x;
      if (typeof version === 'number') await real.api.updateNote(id, { content: plain(real), version });
      await real.api.deleteNote(id);
      return x;
    },
  },
  'note-created-at-given': {
    needs: 'none',
    // updated_at is server time even when created_at is given.
    send: (real) => createNote(real, { content: plain(real), created_at: iso(past(real)) }, false),
  },
  'collection-created-at-given-then-renamed': {
    needs: 'none',
    // updated_at defaults to the created_at given; a PATCH without updated_at sets server time.
    send: async (real) => {
      const id = randomUUID();
      const x = await real.api.createCollection({ id, title: title(real), created_at: iso(past(real)) });
      if (x.status !== 200) return x;
      await real.api.updateCollection(id, { title: title(real) });
      await real.api.deleteCollection(id);
      return x;
    },
  },
  'collection-updated-at-given': {
    needs: 'none',
    // created_at defaults to the updated_at given.
    send: (real) => createCollection(real, { title: title(real), updated_at: iso(past(real)) }, false),
  },
  'update-with-updated-at': {
    needs: 'note',
    // A supplied updated_at becomes the note's (a past one, not before its created_at: the document bounds it neither way).
    send: (real, model, { note }) => {
      const n = noteOf(model, note!);
      return updateNote(real, model, note!, {
        content: plain(real),
        version: currentVersion(n),
        updated_at: iso(pastNotBefore(real.t, n.createdAt?.value)),
      });
    },
  },
  'rename-with-updated-at': {
    needs: 'collection',
    // A supplied updated_at is preserved (a past one, not before the collection's created_at).
    send: (real, model, { collection }) =>
      updateCollection(real, model, collection!, {
        title: title(real),
        updated_at: iso(pastNotBefore(real.t, collectionOf(model, collection!).createdAt?.value)),
      }),
  },
  // ---- what the run deleted, and ids that are none ----
  'deleted-note-read': { needs: 'deleted-note', send: (real, _m, { note }) => real.api.getNote(note!) },
  'deleted-note-update': {
    needs: 'deleted-note',
    send: (real, _m, { note }) => real.api.updateNote(note!, { content: plain(real), version: 1 }),
  },
  'deleted-note-delete': { needs: 'deleted-note', send: (real, _m, { note }) => real.api.deleteNote(note!) },
  'deleted-note-trash': { needs: 'deleted-note', send: (real, _m, { note }) => real.api.trashNote(note!) },
  'deleted-note-backdate': {
    needs: 'deleted-note',
    send: (real, _m, { note }) => real.api.setCreatedAt(note!, { created_at: iso(Date.now() - 400 * DAY) }),
  },
  'deleted-note-related': { needs: 'deleted-note', send: (real, _m, { note }) => real.api.relatedNotes(note!) },
  'deleted-note-restore': {
    needs: 'deleted-note',
    declares: 'endpoints.restore_note',
    send: (real, _m, { note }) => real.api.restoreNote(note!),
  },
  'deleted-collection-read': {
    needs: 'deleted-collection',
    send: (real, _m, { collection }) => real.api.getCollection(collection!),
  },
  'note-titled-deleted-collection': {
    needs: 'deleted-collection',
    // Unmatched titles are ignored: the note is created, in no collection.
    send: (real, model, { collection }) => {
      const title = collectionOf(model, collection!).title?.value;
      return title === undefined
        ? Promise.resolve(undefined)
        : createNote(real, { content: plain(real), collection_titles: [title] }, false);
    },
  },
  'note-into-deleted-collection': {
    needs: 'deleted-collection',
    // An id that maps to no collection any more is ignored: the note is created, in no collection.
    send: (real, _m, { collection }) => createNote(real, { content: plain(real), collection_ids: [collection] }, false),
  },
  'deleted-collection-update': {
    needs: 'deleted-collection',
    send: (real, _m, { collection }) => real.api.updateCollection(collection!, { title: title(real) }),
  },
  'deleted-collection-delete': {
    needs: 'deleted-collection',
    send: (real, _m, { collection }) => real.api.deleteCollection(collection!),
  },
  'add-deleted-note': {
    needs: 'deleted-note',
    send: async (real, model, { note }) => {
      const collection = pickCollection(model, 0);
      return collection ? real.api.addToCollection(collection, note!) : undefined;
    },
  },
  'add-to-deleted-collection': {
    needs: 'deleted-collection',
    send: async (real, model, { collection }) => {
      const note = pickNote(model, 0, (n) => !isTrashed(n));
      return note ? real.api.addToCollection(collection!, note) : undefined;
    },
  },
  'move-to-deleted-collection': {
    needs: 'linked-note',
    send: async (real, model, { note, collection }) => {
      const gone = deletedCollections(model)[0];
      return gone ? real.api.moveNote(collection!, note!, { target_collection_id: gone }) : undefined;
    },
  },
  'linked-note-add-again': {
    needs: 'linked-note',
    // What a second add answers is not shown; after it, collection_ids still names the collection once.
    send: async (real, model, { note, collection }) => {
      const x = await real.api.addToCollection(collection!, note!);
      await followLinks(real, model, note!);
      return x;
    },
  },
  'move-without-target': {
    needs: 'linked-note',
    send: async (real, model, { note, collection }) => {
      const x = await real.api.moveNote(collection!, note!, {});
      // Accepted, the note may have left the collection: the model follows what a read shows.
      if (x.status >= 200 && x.status < 300) await followLinks(real, model, note!);
      return x;
    },
  },
  // ---- malformed JSON ----
  'note-create-truncated-json': {
    needs: 'none',
    send: (real) => real.api.raw({ method: 'POST', path: '/v2/notes', raw: `{"content":"${real.t.data.word()}"` }),
  },
  'collection-update-not-json': {
    needs: 'collection',
    send: (real, _m, { collection }) =>
      real.api.raw({ method: 'PATCH', path: `/v2/collections/${collection}`, raw: 'title=renamed' }),
  },
  // ---- no credentials ----
  'read-without-credentials': {
    needs: 'note',
    send: (real, _m, { note }) => real.api.raw({ method: 'GET', path: `/v2/notes/${note}`, token: null }),
  },
  'capture-without-credentials': {
    needs: 'none',
    declares: 'names.capture.input',
    send: async (real) => {
      const decl = real.t.profile.endpoints?.capture;
      const input = primaryName(real.t.profile.names?.capture?.input);
      if (!decl || input === undefined) return undefined;
      return real.api.raw({
        method: decl.method,
        path: decl.path,
        json: { [input]: `Capture without a token ${real.t.data.word()}` },
        token: null,
        op: 'captureNote',
      });
    },
  },
  'list-without-credentials': {
    needs: 'none',
    send: (real) => real.api.raw({ method: 'GET', path: '/v2/notes', query: { limit: 1 }, token: null }),
  },
  'update-without-credentials': {
    needs: 'note',
    send: (real, model, { note }) =>
      real.api.raw({
        method: 'PATCH',
        path: `/v2/notes/${note}`,
        json: { content: plain(real), version: currentVersion(noteOf(model, note!)) },
        token: null,
      }),
  },
  // ---- a bearer token nobody issued ----
  'read-with-unknown-token': {
    needs: 'note',
    send: (real, _m, { note }) =>
      real.api.raw({ method: 'GET', path: `/v2/notes/${note}`, token: unknownToken(real), unknownToken: true }),
  },
  'list-with-unknown-token': {
    needs: 'none',
    send: (real) =>
      real.api.raw({
        method: 'GET',
        path: '/v2/notes',
        query: { limit: 1 },
        token: unknownToken(real),
        unknownToken: true,
      }),
  },
  'read-note-not-uuid': { needs: 'none', send: (real) => real.api.getNote(`model-${real.t.data.word()}`) },
  'read-collection-not-uuid': { needs: 'none', send: (real) => real.api.getCollection(`model-${real.t.data.word()}`) },
} as const satisfies Record<string, Kind>;

export type EdgeInputKind = keyof typeof EDGE_INPUTS;
export const EDGE_INPUT_KINDS = Object.keys(EDGE_INPUTS) as EdgeInputKind[];

/** The note's collections as a read shows them, after a membership change the target should have refused. */
async function followLinks(real: Real, model: Model, id: string): Promise<void> {
  const x = await real.api.getNote(id);
  const ids = (x.json as { collection_ids?: unknown } | undefined)?.collection_ids;
  if (x.status !== 200 || !Array.isArray(ids)) return;
  const links = ids.filter((c): c is string => typeof c === 'string');
  learnLinks(model.world, noteOf(model, id), links, 'membership.collection-ids.current', x);
}

/** What a kind acts on, picked among the model's notes and collections (an index, as every command). */
function targetOf(model: Model, needs: Needs, index: number): Target | undefined {
  switch (needs) {
    case 'none':
      return {};
    case 'server-created-note': {
      const note = pickNote(model, index, (n) => !isTrashed(n) && n.original !== undefined);
      return note ? { note } : undefined;
    }
    case 'note': {
      // Active: a trashed note's refusal is another rule's (and the document leaves its order open).
      const note = pickNote(model, index, (n) => !isTrashed(n));
      return note ? { note } : undefined;
    }
    case 'collection': {
      const collection = pickCollection(model, index);
      return collection ? { collection } : undefined;
    }
    case 'deleted-note': {
      const gone = deletedNotes(model);
      return gone.length > 0 ? { note: gone[index % gone.length]! } : undefined;
    }
    case 'deleted-collection': {
      const gone = deletedCollections(model);
      return gone.length > 0 ? { collection: gone[index % gone.length]! } : undefined;
    }
    case 'exact-note': {
      const note = pickNote(model, index, (n) => !isTrashed(n) && EXACT_NOTE.has(n.createdAt?.rule ?? ''));
      return note ? { note } : undefined;
    }
    case 'exact-collection': {
      const collection = pickCollection(
        model,
        index,
        (c) => c.createdAt?.rule === 'collections.create.created-at-honoured',
      );
      return collection ? { collection } : undefined;
    }
    case 'linked-note': {
      const note = pickNote(model, index, (n) => !isTrashed(n) && linksOf(n).length > 0);
      return note ? { note, collection: linksOf(noteOf(model, note))[0]! } : undefined;
    }
  }
}

/**
 * One request of documented bad input (or on a boundary); the oracle judges the answer. Which kind
 * is decided when it runs: the one this check sent least among those the model has a target for
 * (kinds that need something the model has only now and then first, then from `which` on), so a
 * check's runs send every kind before any twice; `which` alone decides
 * nothing, so a replay with --seed sends the same kinds in the same order.
 */
export class SendEdgeInput implements fc.AsyncCommand<Model, Real> {
  private shown = '';
  constructor(readonly op: { kind: 'edgeInput'; which: EdgeInputKind; index: number }) {}

  check(): boolean {
    return true;
  }

  private choose(model: Model, real: Real): { which: EdgeInputKind; target: Target } {
    const start = EDGE_INPUT_KINDS.indexOf(this.op.which);
    let best: { which: EdgeInputKind; target: Target; sent: number } | undefined;
    for (let i = 0; i < EDGE_INPUT_KINDS.length; i++) {
      const which = EDGE_INPUT_KINDS[(start + i) % EDGE_INPUT_KINDS.length]!;
      const kind: Kind = EDGE_INPUTS[which];
      // Kinds that need a deleted or linked resource can run only now and then: at equal counts they go first.
      const sent = (real.edgeInputsSent.get(which) ?? 0) + (kind.needs === 'none' ? 0.5 : 0);
      if (best && sent >= best.sent) continue;
      if (kind.declares && !real.t.declares(kind.declares)) continue;
      if (which === 'deleted-note-restore' && !model.canRestore) continue;
      const target = targetOf(model, kind.needs, this.op.index);
      if (target) best = { which, target, sent };
    }
    // Kinds that need nothing always have a target.
    return best!;
  }

  async run(model: Model, real: Real): Promise<void> {
    const { which, target } = this.choose(model, real);
    real.edgeInputsSent.set(which, (real.edgeInputsSent.get(which) ?? 0) + 1);
    const on = [target.note, target.collection].filter(Boolean).join(', ');
    this.shown = `SendEdgeInput(${which}${on ? ` on ${on}` : ''})`;
    real.steps.push(this.shown);
    try {
      const x = await EDGE_INPUTS[which].send(real, model, target);
      if (x) this.shown += ` -> ${x.status}`;
    } catch (error) {
      // A create the run's cap leaves no room for is simply not sent: the bad input is not worth a note.
      if (!isCreateCapReached(error)) throw error;
    }
  }

  toString(): string {
    return this.shown || `SendEdgeInput(${this.op.which}...)`;
  }
}

/** A bearer token of the shape of a key that no target issued, made up for the request. */
function unknownToken(real: Real): string {
  return `nc-unknown-${real.t.data.word()}-${real.t.data.word()}`;
}
