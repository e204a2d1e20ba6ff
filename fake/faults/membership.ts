import type { OperationId } from '../../spec/operations.js';
import type { Call } from '../http/routes.js';
import { isUuid } from '../ids.js';
import { contentFields } from '../service/content.js';
import type { ServiceContext } from '../service/context.js';
import { invalid, notFound } from '../service/errors.js';
import { atLeast, canSeeNote, collectionLevel, requireCollection, requireNote } from '../service/permissions.js';
import { checkString } from '../service/validate.js';
import { noteCreatedView, type View } from '../service/views.js';
import { type CollectionRecord, joined, type Level, type NoteRecord, type UserRecord } from '../store/records.js';
import type { Store } from '../store/store.js';
import type { Fault, FaultFactory, Operation } from './hooks.js';
import { after, around, before, createdNote, fields, pathNote, withFields } from './support.js';

// ---- links made by a note create (collection_ids, collection_titles) ----

/** The reference's rule for the collections a new note may join: active, and the caller can contribute. */
const joinable = (ctx: ServiceContext, user: UserRecord, c: CollectionRecord) =>
  c.trashedAt === null && atLeast(collectionLevel(ctx, user, c), 'contribute');
const activeCollections = (ctx: ServiceContext) =>
  [...ctx.store.collections.values()].filter((c) => c.trashedAt === null);
const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
/** collection_ids when the reference accepts their form (otherwise it refuses the create itself). */
const namedIds = (call: Call): string[] => {
  const ids = fields(call).collection_ids;
  return Array.isArray(ids) && ids.every((id) => typeof id === 'string') ? (ids as string[]) : [];
};
const named = (ctx: ServiceContext, call: Call): CollectionRecord[] =>
  namedIds(call).flatMap((id) => (isUuid(id) ? (ctx.store.collections.get(id.toLowerCase()) ?? []) : []));
/** collection_titles when the reference accepts them all (otherwise it refuses the create itself). */
const namedTitles = (ctx: ServiceContext, call: Call): string[] => {
  const titles = fields(call).collection_titles;
  if (!Array.isArray(titles)) return [];
  try {
    return titles.map((t, i) => checkString(t, `collection_titles[${i}]`, ctx.policy.collectionTitleEntry));
  } catch {
    return [];
  }
};
/** Runs with the caller granted `level` on the collections (as if shared with them); the grants are put back after. */
function granting(
  ctx: ServiceContext,
  user: UserRecord,
  collections: CollectionRecord[],
  level: Level,
  run: () => View,
) {
  const saved = collections.map((c) => [c.id, ctx.store.grants.get(c.id)?.get(user.id)] as const);
  for (const c of collections) ctx.store.grant(c.id, user.id, level);
  try {
    return run();
  } finally {
    for (const [id, previous] of saved) {
      const levels = ctx.store.grants.get(id)!;
      if (previous !== undefined) levels.set(user.id, previous);
      else if (levels.delete(user.id) && levels.size === 0) ctx.store.grants.delete(id);
    }
  }
}
/** Re-renders a create's answer after the fault changed the new note's links. */
const relinked =
  (change: (ctx: ServiceContext, call: Call, note: NoteRecord) => void) =>
  (ctx: ServiceContext, call: Call, view: View): View => {
    const note = createdNote(ctx, view);
    change(ctx, call, note);
    return noteCreatedView(ctx, note);
  };

// ---- membership operations ----

/** A fault under which one operation leaves out a store call (link or unlink) and answers as if it had made it. */
const leavingOut =
  (method: 'link' | 'unlink', op: OperationId): FaultFactory =>
  () => {
    let running = false;
    const skip =
      (next: Store['link']): Store['link'] =>
      (note, collection) => {
        if (!running) next(note, collection);
      };
    return {
      ops: {
        [op]:
          (next: Operation): Operation =>
          (ctx, call) => {
            running = true;
            try {
              return next(ctx, call);
            } finally {
              running = false;
            }
          },
      },
      store: method === 'link' ? { link: skip } : { unlink: skip },
    };
  };
/** The collection an add names, if the caller may add to it. */
const addTarget = (ctx: ServiceContext, call: Call) =>
  requireCollection(ctx, call.user, call.params.collection_id!, ctx.policy.levels.addNoteToCollection);
const isObject = (body: unknown) => body !== null && typeof body === 'object' && !Array.isArray(body);
/** The move's target as the reference reads it, when it is a UUID. */
const targetOf = (call: Call): string | undefined => {
  const id = fields(call).target_collection_id;
  return isUuid(id) ? id.toLowerCase() : undefined;
};
/** Takes the note out of the move's source, when the caller may do that part of the move. */
function removeFromSource(ctx: ServiceContext, call: Call): void {
  try {
    const source = requireCollection(ctx, call.user, call.params.source_collection_id!, 'edit');
    const note = requireNote(ctx, call.user, call.params.note_id!, 'access');
    if (source.noteIds.has(note.id)) ctx.store.unlink(note, source);
  } catch {
    // That part of the move is refused as well: nothing was removed.
  }
}

export const MEMBERSHIP_FAULTS = {
  // ---- note create: collection_ids ----
  'notes.create.collection-ids-dropped': {
    rules: ['notes.create.collection-ids-linked'],
    does: 'collection_ids is ignored',
    hooks: before('createNote', (_ctx, call) =>
      isObject(call.body) ? withFields(call, { collection_ids: undefined }) : call,
    ),
  },
  'notes.create.foreign-collection-linked': {
    rules: ['notes.create.collection-ids-inaccessible-ignored'],
    does: 'any existing collection is linked, accessible or not',
    hooks: around('createNote', (next) => (ctx, call) => {
      const closed = named(ctx, call).filter((c) => c.trashedAt === null && !joinable(ctx, call.user, c));
      return granting(ctx, call.user, closed, 'contribute', () => next(ctx, call));
    }),
  },
  // Refused before the reference runs: the 404 comes ahead of the refusals of other fields.
  'notes.create.unknown-collection-refused': {
    rules: ['notes.create.collection-ids-unknown-ignored'],
    does: 'an unknown collection id refuses the create',
    hooks: before('createNote', (ctx, call) => {
      for (const id of namedIds(call)) {
        const collection = isUuid(id) ? ctx.store.collections.get(id.toLowerCase()) : undefined;
        if (!collection || !joinable(ctx, call.user, collection)) throw notFound(`collection ${id}`);
      }
      return call;
    }),
  },

  // ---- note create: collection_titles ----
  'notes.create.title-entry-limit-off-by-one': {
    rules: ['notes.create.collection-titles-max-chars'],
    does: 'collection_titles entries of 1,001 characters are accepted',
    hooks: () => ({
      policy: { collectionTitleEntry: { maxChars: 1_001, maxBytes: 1_001 } },
    }),
  },
  'notes.create.title-entry-bytes-unchecked': {
    rules: ['notes.create.collection-titles-max-bytes'],
    does: 'collection_titles entries are not limited in bytes',
    hooks: () => ({ policy: { collectionTitleEntry: { maxBytes: undefined } } }),
  },
  // The extra links come after the reference's own in collection_ids (an order the document does not fix).
  'notes.create.foreign-title-linked': {
    rules: ['notes.create.collection-titles-inaccessible-ignored'],
    does: "collection_titles also match other users' collections",
    hooks: after(
      'createNote',
      relinked((ctx, call, note) => {
        const titles = namedTitles(ctx, call);
        for (const c of activeCollections(ctx)) if (titles.some((t) => same(c.title, t))) ctx.store.link(note, c);
      }),
    ),
  },
  // The next two link as the two above do, but answer with the reference's create response: only
  // the other user's note count shows the link (the kit reads it once for both ways of naming).
  'notes.create.foreign-collection-linked-unshown': {
    rules: ['notes.create.collection-ids-inaccessible-ignored'],
    does: 'an inaccessible collection named in collection_ids gets the note, which the create response does not list',
    hooks: after('createNote', (ctx, call, view) => {
      const note = createdNote(ctx, view);
      for (const c of named(ctx, call))
        if (c.trashedAt === null && !joinable(ctx, call.user, c)) ctx.store.link(note, c);
      return view;
    }),
  },
  'notes.create.foreign-title-linked-unshown': {
    rules: ['notes.create.collection-titles-inaccessible-ignored'],
    does: "collection_titles also link other users' collections, which the create response does not list",
    hooks: after('createNote', (ctx, call, view) => {
      const note = createdNote(ctx, view);
      const titles = namedTitles(ctx, call);
      for (const c of activeCollections(ctx))
        if (!joinable(ctx, call.user, c) && titles.some((t) => same(c.title, t))) ctx.store.link(note, c);
      return view;
    }),
  },
  // Like unknown-collection-refused, the 404 comes ahead of the refusals of other fields.
  'notes.create.unmatched-title-refused': {
    rules: ['notes.create.collection-titles-unmatched-ignored'],
    does: 'an unmatched title refuses the create',
    hooks: before('createNote', (ctx, call) => {
      const mine = activeCollections(ctx).filter((c) => joinable(ctx, call.user, c));
      const unmatched = namedTitles(ctx, call).find((t) => !mine.some((c) => same(c.title, t)));
      if (unmatched !== undefined) throw notFound(`collection titled ${JSON.stringify(unmatched)}`);
      return call;
    }),
  },
  // Links made only because a title matched in another case come undone.
  'notes.create.titles-case-sensitive': {
    rules: ['notes.create.collection-titles-case-insensitive'],
    does: 'collection titles match case-sensitively',
    hooks: after(
      'createNote',
      relinked((ctx, call, note) => {
        const ids = new Set(named(ctx, call).map((c) => c.id));
        const titles = namedTitles(ctx, call);
        for (const id of [...note.collectionIds]) {
          const c = ctx.store.collections.get(id)!;
          if (!ids.has(id) && !titles.includes(c.title)) ctx.store.unlink(note, c);
        }
      }),
    ),
  },
  'notes.create.titles-prefix-match': {
    rules: ['notes.create.collection-titles-exact'],
    does: 'a collection title matches any title it is a prefix of',
    hooks: after(
      'createNote',
      relinked((ctx, call, note) => {
        const prefixes = namedTitles(ctx, call)
          .filter((t) => t.length > 0)
          .map((t) => t.toLowerCase());
        for (const c of activeCollections(ctx)) {
          if (joinable(ctx, call.user, c) && prefixes.some((p) => c.title.toLowerCase().startsWith(p)))
            ctx.store.link(note, c);
        }
      }),
    ),
  },

  // ---- add ----
  'membership.add.access-level-can-add': {
    rules: ['membership.add.requires-contribute'],
    does: 'access permission on the collection suffices to add',
    hooks: () => ({ policy: { levels: { addNoteToCollection: 'access' } } }),
  },
  'membership.add.missing-note-accepted': {
    rules: ['membership.add.missing-refused'],
    does: 'adding a missing note answers 200',
    hooks: around('addNoteToCollection', (next) => (ctx, call) => {
      if (pathNote(ctx, call)) return next(ctx, call);
      addTarget(ctx, call); // the collection's refusals still apply
      return {};
    }),
  },
  'membership.add.foreign-note-linked': {
    rules: ['membership.add.requires-note-access'],
    does: 'any existing note can be added',
    hooks: around('addNoteToCollection', (next) => (ctx, call) => {
      const note = pathNote(ctx, call);
      if (!note || canSeeNote(ctx, call.user, note)) return next(ctx, call);
      ctx.store.link(note, addTarget(ctx, call));
      return {};
    }),
  },
  'membership.add.not-linked': {
    rules: ['membership.add.links'],
    does: 'add answers 200 without linking',
    hooks: leavingOut('link', 'addNoteToCollection'),
  },
  'membership.add.replaces-links': {
    rules: ['membership.note.several-collections'],
    does: 'adding a note to a collection drops its other collections',
    hooks: after('addNoteToCollection', (ctx, call, view) => {
      const note = pathNote(ctx, call)!;
      for (const id of [...note.collectionIds]) {
        if (id !== call.params.collection_id) ctx.store.unlink(note, ctx.store.collections.get(id)!);
      }
      return view;
    }),
  },
  // A tombstoned link row that blocks a new one: the add the document determines is refused.
  'membership.add.readd-refused': {
    rules: ['membership.add.links'],
    does: 'a note removed from a collection cannot be added to it again (400)',
    judgedBy: 'oracle',
    hooks: () => {
      const removed = new Set<string>(); // "note collection"
      const key = (call: Call) => `${call.params.note_id ?? ''} ${call.params.collection_id ?? ''}`;
      return {
        ops: {
          removeNoteFromCollection: (next) => (ctx, call) => {
            const view = next(ctx, call);
            removed.add(key(call));
            return view;
          },
          addNoteToCollection: (next) => (ctx, call) => {
            if (removed.has(key(call))) throw invalid('the note was removed from this collection before');
            return next(ctx, call);
          },
        },
      };
    },
  },
  // A version bump on add is a valid choice (the document does not say); touching the content is not.
  'membership.add.touches-note': {
    rules: ['membership.add.link-only'],
    does: 'add writes the collection title into the note content (a tag line), which changes its title too',
    hooks: after('addNoteToCollection', (ctx, call, view) => {
      const note = pathNote(ctx, call)!;
      const collection = ctx.store.collections.get(call.params.collection_id ?? '');
      ctx.store.setNoteContent(note, contentFields(ctx, `#${collection?.title ?? 'tagged'}\n${note.content}`, note));
      note.version++;
      return view;
    }),
  },

  // ---- move ----
  'membership.move.target-access-suffices': {
    rules: ['membership.move.requires-permissions'],
    does: 'access permission on the target suffices',
    hooks: () => ({ policy: { levels: { moveNoteTarget: 'access' } } }),
  },
  // Without a target the note leaves its source: the reference moves it onto its own source (all its
  // checks run, nothing changes) and the fault then takes it out.
  'membership.move.target-optional': {
    rules: ['membership.move.target-required'],
    does: 'a move without target removes the note from the source',
    hooks: around('moveNote', (next) => (ctx, call) => {
      if (!isObject(call.body) || fields(call).target_collection_id !== undefined) return next(ctx, call);
      const view = next(ctx, withFields(call, { target_collection_id: call.params.source_collection_id }));
      ctx.store.unlink(pathNote(ctx, call)!, ctx.store.collections.get(call.params.source_collection_id!)!);
      return view;
    }),
  },
  'membership.move.missing-source-ignored': {
    rules: ['membership.move.missing-refused'],
    does: 'a missing source collection is ignored',
    hooks: around('moveNote', (next) => (ctx, call) => {
      const target = targetOf(call);
      if (ctx.store.collections.has(call.params.source_collection_id!) || target === undefined) return next(ctx, call);
      const note = requireNote(ctx, call.user, call.params.note_id!, 'access');
      ctx.store.link(note, requireCollection(ctx, call.user, target, ctx.policy.levels.moveNoteTarget));
      return {};
    }),
  },
  // The note leaves its source before the target is checked: a refused target leaves it nowhere.
  'membership.move.removes-first': {
    rules: ['membership.move.failed-add-keeps-source'],
    does: 'move removes from the source before checking the target',
    hooks: around('moveNote', (next) => (ctx, call) => {
      let view: View;
      try {
        view = next(ctx, call);
      } catch (error) {
        if (targetOf(call) !== undefined) removeFromSource(ctx, call);
        throw error;
      }
      if (targetOf(call) === call.params.source_collection_id) {
        // Removed, then added back: the source moves to the end of collection_ids.
        const note = pathNote(ctx, call)!;
        const source = ctx.store.collections.get(targetOf(call)!)!;
        ctx.store.unlink(note, source);
        ctx.store.link(note, source);
      }
      return view;
    }),
  },
  'membership.move.copies': {
    rules: ['membership.move.moves'],
    does: 'move adds to the target but keeps the source',
    hooks: leavingOut('unlink', 'moveNote'),
  },
  // The broken server updates the collection side of the link but not the note's list.
  'membership.collection-ids.stale-after-move': {
    rules: ['membership.collection-ids.current'],
    does: 'after a move the note still lists the source collection',
    hooks: after('moveNote', (ctx, call, view) => {
      const source = call.params.source_collection_id!;
      const note = pathNote(ctx, call)!;
      if (targetOf(call) !== source) note.collectionIds = joined(note.collectionIds, source);
      return view;
    }),
  },
  'membership.move.rewrites-content': {
    rules: ['membership.move.content-unchanged'],
    does: 'move appends a line to the content',
    hooks: after('moveNote', (ctx, call, view) => {
      const note = pathNote(ctx, call)!;
      const target = ctx.store.collections.get(targetOf(call)!)!;
      ctx.store.setNoteContent(note, contentFields(ctx, `${note.content}\n\nMoved to ${target.title}`, note));
      return view;
    }),
  },

  // ---- remove ----
  'membership.remove.noop': {
    rules: ['membership.remove.unlinks'],
    does: 'remove answers 200 without unlinking',
    hooks: leavingOut('unlink', 'removeNoteFromCollection'),
  },
} satisfies Record<string, Fault>;

/** Faults of issue 10's missing membership rules (the lead folds them into membership.ts). */
export const MEMBERSHIP_LINK_FAULTS = {
  // A link table without a unique key: a second add stores a second row, and reads join both.
  'membership.collection-ids.duplicated': {
    rules: ['membership.collection-ids.current'],
    does: 'a note added twice to a collection lists it twice in collection_ids',
    hooks: () => {
      const twice = new Map<string, Set<string>>();
      const withRepeats = (ctx: ServiceContext, item: View): View => {
        const note = ctx.store.notes.get(String(item.id));
        const extra = [...(twice.get(String(item.id)) ?? [])].filter((c) => note?.collectionIds.has(c));
        return Array.isArray(item.collection_ids) && extra.length > 0
          ? { ...item, collection_ids: [...item.collection_ids, ...extra] }
          : item;
      };
      return {
        ops: {
          addNoteToCollection: (next) => (ctx, call) => {
            const { collection_id: collectionId = '', note_id: noteId = '' } = call.params;
            const already = ctx.store.notes.get(noteId)?.collectionIds.has(collectionId) ?? false;
            const view = next(ctx, call);
            if (already) (twice.get(noteId) ?? twice.set(noteId, new Set()).get(noteId)!).add(collectionId);
            return view;
          },
          getNote: (next) => (ctx, call) => withRepeats(ctx, next(ctx, call)),
          listNotes: (next) => (ctx, call) => {
            const view = next(ctx, call);
            return Array.isArray(view.results)
              ? { ...view, results: view.results.map((r: View) => withRepeats(ctx, r)) }
              : view;
          },
        },
      };
    },
  },
} satisfies Record<string, Fault>;
