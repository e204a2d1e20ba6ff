import { DomainError, invalid, notFound } from '../service/errors.js';
import { requireNote } from '../service/permissions.js';
import { noteWrittenView, type View } from '../service/views.js';
import type { Fault, FaultFactory, OperationWrapper } from './hooks.js';
import { after, around, before, fields, pathNote, pretending, withFields } from './support.js';

/**
 * A delete that only hides the note from reads by id (a "deleted" flag that other queries forget):
 * it stays in the list, or stays updatable, as `leaks` says. Everything else treats it as gone.
 */
const halfDeleted =
  (leaks: { listed: boolean; updatable: boolean }): FaultFactory =>
  () => {
    const hidden = new Set<string>();
    const gone: OperationWrapper = (next) => (ctx, call) => {
      if (hidden.has(call.params.note_id ?? '')) throw notFound('note');
      return next(ctx, call);
    };
    const unlisted: OperationWrapper = (next) => (ctx, call) => {
      const view = next(ctx, call);
      if (!Array.isArray(view.results)) return view;
      const results = view.results.filter((r: View) => !hidden.has(String(r.id)));
      return { ...view, results, total: Number(view.total) - (view.results.length - results.length) };
    };
    return {
      ops: {
        deleteNote: (_next) => (ctx, call) => {
          const id = call.params.note_id ?? '';
          if (hidden.has(id)) throw notFound('note');
          requireNote(ctx, call.user, id, ctx.policy.levels.deleteNote); // who may delete is unchanged
          hidden.add(id);
          return {};
        },
        getNote: gone,
        setNoteCreatedAt: gone,
        trashNote: gone,
        getRelatedNotes: gone,
        ...(leaks.updatable ? {} : { updateNote: gone }),
        ...(leaks.listed ? {} : { listNotes: unlisted, searchNotes: unlisted }),
      },
    };
  };

/**
 * set-created-at that updates the note but not the list's copy of created_at (a denormalised
 * column or an index nobody re-keys): GET /v2/notes orders and bounds by the old value and shows
 * the new one.
 */
const listKeepsOriginalCreatedAt: FaultFactory = () => {
  const listed = new Map<string, number>(); // note id -> the created_at the list still uses
  return {
    store: {
      setNoteCreatedAt: (_next, _store) => (note, createdAt) => {
        if (!listed.has(note.id)) listed.set(note.id, note.createdAt);
        note.createdAt = createdAt;
      },
      deleteNote: (next) => (note) => {
        const stale = listed.get(note.id);
        listed.delete(note.id);
        if (stale === undefined) return next(note);
        note.createdAt = stale; // the index holds the stale key: remove that entry
        next(note);
      },
    },
    ops: {
      listNotes: (next) => (ctx, call) => {
        const fresh = new Map<string, number>();
        for (const [id, stale] of listed) {
          const note = ctx.store.notes.get(id);
          if (!note) continue;
          fresh.set(id, note.createdAt);
          note.createdAt = stale;
        }
        try {
          const view = next(ctx, call);
          if (!Array.isArray(view.results)) return view;
          const shown = (r: View) =>
            fresh.has(String(r.id)) ? { ...r, created_at: ctx.settings.formatTime(fresh.get(String(r.id))!) } : r;
          return { ...view, results: view.results.map(shown) };
        } finally {
          for (const [id, createdAt] of fresh) ctx.store.notes.get(id)!.createdAt = createdAt;
        }
      },
    },
  };
};

/** Faults of issue 10's missing note rules (the lead folds them into the area files). */
export const NOTE_STATE_FAULTS = {
  // A server that rewrites the whole row on update, creation time included.
  'notes.update.created-at-reset': {
    rules: ['notes.update.created-at-unchanged'],
    does: 'a content update sets created_at to the time of the update',
    hooks: after('updateNote', (ctx, call, view) => {
      const note = pathNote(ctx, call);
      if (!note) return view;
      ctx.store.setNoteCreatedAt(note, ctx.clock.now());
      return noteWrittenView(ctx, note);
    }),
  },
  // A PATCH that treats every field as optional: no content means "keep the content".
  'notes.update.content-optional': {
    rules: ['notes.update.content-required'],
    does: 'an update without content keeps the old content and bumps the version',
    hooks: before('updateNote', (ctx, call) => {
      const note = pathNote(ctx, call);
      return note && fields(call).content === undefined ? withFields(call, { content: note.content }) : call;
    }),
  },
  'notes.set-created-at.list-uses-original': {
    rules: ['notes.set-created-at.lists-follow'],
    does: 'the note list orders and bounds by the created_at a note had before set-created-at (it shows the new one)',
    hooks: listKeepsOriginalCreatedAt,
  },
  // Modified UTF-8 (CESU-8): each half of a surrogate pair takes three bytes.
  'notes.create.astral-counted-six-bytes': {
    rules: ['notes.create.content-max-bytes'],
    does: 'the create byte limit counts an emoji as six bytes (modified UTF-8: each surrogate encoded alone)',
    hooks: before('createNote', (ctx, call) => {
      const content = fields(call).content;
      const max = ctx.policy.note.createContent.maxBytes;
      const astral = typeof content === 'string' ? (content.match(/[\u{10000}-\u{10FFFF}]/gu) ?? []).length : 0;
      if (typeof content === 'string' && max !== undefined && Buffer.byteLength(content, 'utf8') + 2 * astral > max) {
        throw invalid(`content must have at most ${max} UTF-8 bytes`);
      }
      return call;
    }),
  },
  'notes.create.astral-replaced': {
    rules: ['notes.create.content-stored'],
    does: 'characters outside the Basic Multilingual Plane (emoji) are stored as U+FFFD, as in a three-byte utf8 column',
    hooks: before('createNote', (_ctx, call) => {
      const content = fields(call).content;
      return typeof content === 'string'
        ? withFields(call, { content: content.replace(/[\u{10000}-\u{10FFFF}]/gu, '\uFFFD') })
        : call;
    }),
  },
  // An outer join that yields one row of nulls for a note with no media, rendered as an item.
  'notes.read.plain-note-placeholder-media': {
    rules: ['notes.read.response-fields'],
    does: 'a note without attachments reads one all-null attachment and one audio recording id',
    hooks: after('getNote', (_ctx, _call, view) => {
      const empty = (v: unknown) => Array.isArray(v) && v.length === 0;
      if (!empty(view.attachment_metadata) || !empty(view.audio_recording_ids)) return view;
      const placeholder = {
        attachment_id: view.id,
        attachment_kind: 'pdf',
        image_type: null,
        ocr_text: null,
        page_count: null,
        suggested_search: null,
        summary: null,
        visual_description: null,
      };
      return { ...view, attachment_metadata: [placeholder], audio_recording_ids: [view.id] };
    }),
  },
  // The quota is checked after the insert, and the refusal does not roll the insert back.
  'quota.refusal-stores-note': {
    rules: ['quota.create.exceeded-body'],
    does: 'a create over quota answers quota_exceeded but stores the note anyway',
    hooks: around('createNote', (next) => (ctx, call) => {
      try {
        return next(ctx, call);
      } catch (error) {
        if (!(error instanceof DomainError) || error.kind !== 'quota_exceeded') throw error;
        pretending(call.user, 'quota', undefined, () => next(ctx, call));
        throw error;
      }
    }),
  },
  'notes.delete.still-listed': {
    rules: ['notes.delete.permanent'],
    does: 'a deleted note is refused by id but still appears in GET /v2/notes',
    hooks: halfDeleted({ listed: true, updatable: false }),
  },
  'notes.delete.still-updatable': {
    rules: ['notes.delete.permanent'],
    does: 'a deleted note is refused by id but an update of it still succeeds',
    hooks: halfDeleted({ listed: false, updatable: true }),
  },
} satisfies Record<string, Fault>;
