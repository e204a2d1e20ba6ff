import type { OperationId } from '../../spec/operations.js';
import type { Call } from '../http/routes.js';
import { contentFields } from '../service/content.js';
import type { ServiceContext } from '../service/context.js';
import { countNoteCreate } from '../service/quota.js';
import { parseTimestamp } from '../service/validate.js';
import { noteCreatedView, noteWrittenView } from '../service/views.js';
import type { NoteRecord } from '../store/records.js';
import type { Fault, FaultFactory } from './hooks.js';
import {
  after,
  around,
  before,
  createdNote,
  fields,
  pathNote,
  pretending,
  storedDespiteRefusal,
  withFields,
} from './support.js';

/** The existing note a create names by id, if any. */
const existingFor = (ctx: ServiceContext, call: Call): NoteRecord | undefined => {
  const id = fields(call).id;
  return typeof id === 'string' ? (ctx.store.notes.get(id.toLowerCase()) ?? ctx.store.notes.get(id)) : undefined;
};
/** What a broken server does instead of 409: overwrite the existing note. */
function overwrite(ctx: ServiceContext, note: NoteRecord, content: unknown) {
  ctx.store.setNoteContent(note, contentFields(ctx, String(content ?? ''), note));
  note.version++;
  ctx.store.setNoteUpdatedAt(note, ctx.clock.now());
  return noteCreatedView(ctx, note);
}
const instant = (value: unknown): number | undefined => {
  try {
    return value === undefined || value === null ? undefined : parseTimestamp(value, 'created_at');
  } catch {
    return undefined;
  }
};
/** Re-renders a create's answer after the fault changed the stored note. */
const fixCreated =
  (
    change: (ctx: ServiceContext, note: NoteRecord, call: Call) => void,
  ): ((ctx: ServiceContext, call: Call, view: Record<string, unknown>) => Record<string, unknown>) =>
  (ctx, call, view) => {
    const note = createdNote(ctx, view);
    change(ctx, note, call);
    return noteCreatedView(ctx, note);
  };
const setOriginal = (note: NoteRecord, ms: number) => {
  (note as { originalCreatedAt: number }).originalCreatedAt = ms;
};
/** Runs a write on a trashed note as if it were active (the trash refusal is skipped). */
const ignoringTrash = (op: OperationId): FaultFactory =>
  around(op, (next) => (ctx, call) => {
    const note = pathNote(ctx, call);
    return note && note.trashedAt !== null
      ? pretending(note, 'trashedAt', null, () => next(ctx, call))
      : next(ctx, call);
  });
/** Replaces the version the client sent, when `when` holds, with the current one (the check passes). */
const versionForced = (when: (sent: unknown, current: number) => boolean): FaultFactory =>
  before('updateNote', (ctx, call) => {
    const note = pathNote(ctx, call);
    const sent = fields(call).version;
    return note && when(sent, note.version) ? withFields(call, { version: note.version }) : call;
  });

export const NOTES_WRITE_FAULTS = {
  // ---- create ----
  'notes.create.content-optional': {
    rules: ['notes.create.content-required'],
    does: 'a create without content makes an empty note',
    hooks: before('createNote', (_ctx, call) =>
      fields(call).content === undefined ? withFields(call, { content: '' }) : call,
    ),
  },
  'notes.create.types-coerced': {
    rules: ['notes.create.field-types'],
    does: 'a non-string content is converted to a string',
    hooks: before('createNote', (_ctx, call) => {
      const content = fields(call).content;
      return content !== undefined && typeof content !== 'string'
        ? withFields(call, { content: String(content) })
        : call;
    }),
  },
  // Over 200,000 characters is also over 200,000 bytes: the off-by-one lifts both limits by one.
  'notes.create.content-limit-off-by-one': {
    rules: ['notes.create.content-max-chars'],
    does: 'content of 200,001 characters is accepted',
    hooks: () => ({ policy: { note: { createContent: { maxChars: 200_001, maxBytes: 200_001 } } } }),
  },
  'notes.create.content-bytes-unchecked': {
    rules: ['notes.create.content-max-bytes'],
    does: 'only characters are counted on create',
    hooks: () => ({ policy: { note: { createContent: { maxBytes: undefined } } } }),
  },
  'notes.create.content-altered': {
    rules: ['notes.create.content-stored'],
    does: 'trailing whitespace of the content is dropped',
    hooks: before('createNote', (_ctx, call) => {
      const content = fields(call).content;
      return typeof content === 'string' ? withFields(call, { content: content.trimEnd() }) : call;
    }),
  },
  'notes.create.future-refused-but-stored': {
    rules: ['notes.create.created-at-not-future'],
    does: 'a create with a future created_at is refused, but the note is stored anyway (at server time)',
    hooks: storedDespiteRefusal(
      'createNote',
      'created_at',
      (v, ctx) => typeof v === 'string' && Date.parse(v) > ctx.clock.now(),
    ),
  },
  'notes.create.version-starts-at-zero': {
    rules: ['notes.create.version-positive'],
    does: 'new notes have version 0',
    hooks: () => ({ policy: { note: { firstVersion: 0 } } }),
  },
  'notes.create.id-ignored': {
    rules: ['notes.create.id-honoured'],
    does: 'a supplied id is replaced by a generated one',
    hooks: before('createNote', (_ctx, call) => withFields(call, { id: undefined })),
  },
  'notes.create.id-not-validated': {
    rules: ['notes.create.id-must-be-uuid'],
    does: 'any string is accepted as a note id',
    hooks: () => ({ policy: { note: { validateSuppliedIds: false } } }),
  },
  'notes.create.id-upsert': {
    rules: ['notes.create.id-conflict-409'],
    does: 'an existing id overwrites the note (200)',
    hooks: around('createNote', (next) => (ctx, call) => {
      const existing = existingFor(ctx, call);
      return existing ? overwrite(ctx, existing, fields(call).content) : next(ctx, call);
    }),
  },
  'notes.create.conflict-overwrites': {
    rules: ['notes.create.id-conflict-no-upsert'],
    does: 'a 409 create still overwrites the content',
    hooks: around('createNote', (next) => (ctx, call) => {
      const existing = existingFor(ctx, call);
      if (existing && typeof fields(call).content === 'string') overwrite(ctx, existing, fields(call).content);
      return next(ctx, call);
    }),
  },
  'notes.create.trashed-id-reused': {
    rules: ['notes.create.id-conflict-409-trashed'],
    does: "a trashed note's id is reused for the new note",
    hooks: before('createNote', (ctx, call) => {
      const existing = existingFor(ctx, call);
      if (existing && existing.trashedAt !== null) ctx.store.deleteNote(existing);
      return call;
    }),
  },
  'notes.create.foreign-id-regenerated': {
    rules: ['notes.create.id-conflict-409-other-user'],
    does: "another user's id is silently replaced by a new one",
    hooks: before('createNote', (ctx, call) => {
      const existing = existingFor(ctx, call);
      return existing && existing.ownerId !== call.user.id ? withFields(call, { id: undefined }) : call;
    }),
  },
  'notes.create.ids-not-uuid': {
    rules: ['notes.create.id-generated', 'conventions.ids.uuid'],
    does: 'generated note ids are not UUIDs',
    hooks: around('createNote', (next) => (ctx, call) => {
      const view = next(ctx, call);
      if (fields(call).id !== undefined) return view;
      // The broken server hands out its own id format: the note is stored again under it.
      const note = createdNote(ctx, view);
      const links = [...note.collectionIds].map((id) => ctx.store.collections.get(id)!);
      ctx.store.deleteNote(note);
      const renamed: NoteRecord = {
        ...note,
        id: `note_${note.id.replace(/-/g, '').slice(0, 16)}`,
        collectionIds: new Set(),
      };
      ctx.store.insertNote(renamed);
      for (const c of links) ctx.store.link(renamed, c);
      return noteCreatedView(ctx, renamed);
    }),
  },
  'notes.create.created-at-ignored': {
    rules: ['notes.create.created-at-honoured'],
    does: 'a supplied created_at is replaced by server time',
    hooks: after(
      'createNote',
      fixCreated((ctx, note) => {
        ctx.store.setNoteCreatedAt(note, ctx.clock.now());
        setOriginal(note, note.createdAt);
      }),
    ),
  },
  'notes.create.created-at-ignores-updated-at': {
    rules: ['notes.create.created-at-defaults-to-updated-at'],
    does: 'an omitted created_at is server time even when updated_at is given',
    hooks: after(
      'createNote',
      fixCreated((ctx, note, call) => {
        if (fields(call).created_at !== undefined || fields(call).updated_at === undefined) return;
        ctx.store.setNoteCreatedAt(note, ctx.clock.now());
        setOriginal(note, note.createdAt);
      }),
    ),
  },
  'notes.create.created-at-default-stale': {
    rules: ['notes.create.created-at-defaults-to-server-time'],
    does: 'an omitted created_at is an hour behind server time',
    hooks: after(
      'createNote',
      fixCreated((ctx, note, call) => {
        if (fields(call).created_at !== undefined || fields(call).updated_at !== undefined) return;
        ctx.store.setNoteCreatedAt(note, ctx.clock.now() - 3_600_000);
        setOriginal(note, note.createdAt);
      }),
    ),
  },
  'notes.create.updated-at-ignored': {
    rules: ['notes.create.updated-at-honoured'],
    does: 'a supplied updated_at is replaced by server time',
    hooks: after(
      'createNote',
      fixCreated((ctx, note) => ctx.store.setNoteUpdatedAt(note, ctx.clock.now())),
    ),
  },
  'notes.create.updated-at-copies-created-at': {
    rules: ['notes.create.updated-at-defaults-to-server-time'],
    does: 'an omitted updated_at copies the given created_at',
    hooks: after(
      'createNote',
      fixCreated((ctx, note, call) => {
        const created = instant(fields(call).created_at);
        if (fields(call).updated_at === undefined && created !== undefined) ctx.store.setNoteUpdatedAt(note, created);
      }),
    ),
  },
  'notes.create.response-has-trashed-at': {
    rules: ['notes.create.response-omits-trashed-at'],
    does: 'the create response carries trashed_at: null',
    hooks: after('createNote', (_ctx, _call, view) => ({ ...view, trashed_at: null })),
  },

  // ---- update ----
  'notes.update.access-level-can-edit': {
    rules: ['notes.update.requires-edit'],
    does: 'access permission suffices to update',
    hooks: () => ({ policy: { levels: { updateNote: 'access' } } }),
  },
  'notes.update.trashed-allowed': {
    rules: ['notes.update.trashed-refused'],
    does: 'a trashed note can be updated',
    hooks: ignoringTrash('updateNote'),
  },
  'notes.update.content-limit-off-by-one': {
    rules: ['notes.update.content-max-chars'],
    does: 'update content of 200,001 characters is accepted',
    hooks: () => ({ policy: { note: { updateContent: { maxChars: 200_001 } } } }),
  },
  'notes.update.types-coerced': {
    rules: ['notes.update.field-types'],
    does: 'an update converts a numeric content and a string version',
    hooks: before('updateNote', (_ctx, call) => {
      const { content, version } = fields(call);
      return withFields(call, {
        ...(typeof content === 'number' ? { content: String(content) } : {}),
        ...(typeof version === 'string' ? { version: Number(version) } : {}),
      });
    }),
  },
  'notes.update.version-optional': {
    rules: ['notes.update.version-required'],
    does: 'an update without version is accepted',
    hooks: versionForced((sent) => sent === undefined),
  },
  'notes.update.version-zero-forces': {
    rules: ['notes.update.version-min-1'],
    does: 'version 0 forces the update',
    hooks: versionForced((sent) => sent === 0),
  },
  'notes.update.stale-version-accepted': {
    rules: ['notes.update.version-stale-refused'],
    does: 'an older version is accepted',
    hooks: versionForced((sent, current) => typeof sent === 'number' && sent >= 1 && sent < current),
  },
  'notes.update.ahead-version-accepted': {
    rules: ['notes.update.version-ahead-refused'],
    does: 'a version ahead of the current one is accepted',
    hooks: versionForced((sent, current) => typeof sent === 'number' && Number.isInteger(sent) && sent > current),
  },
  'notes.update.updated-at-offset-optional': {
    rules: ['notes.update.updated-at-offset-required'],
    does: 'updated_at without an offset is read as UTC',
    hooks: () => ({ policy: { timestamps: { 'note.update.updated_at': { offsetRequired: false } } } }),
  },
  'notes.update.content-appended': {
    rules: ['notes.update.content-replaced'],
    does: 'update appends the new content to the old',
    hooks: before('updateNote', (ctx, call) => {
      const note = pathNote(ctx, call);
      const content = fields(call).content;
      return note && typeof content === 'string' ? withFields(call, { content: `${note.content}\n${content}` }) : call;
    }),
  },
  'notes.update.version-not-incremented': {
    rules: ['notes.update.version-changes'],
    does: 'the version does not change on update',
    hooks: after('updateNote', (ctx, call, _view) => {
      const note = pathNote(ctx, call)!;
      note.version--;
      return noteWrittenView(ctx, note);
    }),
  },
  'notes.update.updated-at-ignored': {
    rules: ['notes.update.updated-at-honoured'],
    does: 'a supplied updated_at is replaced by server time',
    hooks: after('updateNote', (ctx, call, view) => {
      if (fields(call).updated_at === undefined) return view;
      const note = pathNote(ctx, call)!;
      ctx.store.setNoteUpdatedAt(note, ctx.clock.now());
      return noteWrittenView(ctx, note);
    }),
  },
  'notes.update.updated-at-unchanged': {
    rules: ['notes.update.updated-at-defaults-to-server-time'],
    does: 'an omitted updated_at leaves the old one',
    hooks: around('updateNote', (next) => (ctx, call) => {
      const previous = pathNote(ctx, call)?.updatedAt;
      const view = next(ctx, call);
      if (fields(call).updated_at !== undefined || previous === undefined) return view;
      const note = pathNote(ctx, call)!;
      ctx.store.setNoteUpdatedAt(note, previous);
      return noteWrittenView(ctx, note);
    }),
  },
  'notes.update.response-has-old-version': {
    rules: ['notes.update.version-from-read-or-write'],
    does: 'the update response reports the version it replaced',
    hooks: around('updateNote', (next) => (ctx, call) => {
      const previous = pathNote(ctx, call)?.version;
      const view = next(ctx, call);
      return { ...view, version: previous };
    }),
  },

  // ---- set created-at ----
  'notes.set-created-at.editor-allowed': {
    rules: ['notes.set-created-at.requires-owner'],
    does: 'edit permission suffices to set created_at',
    hooks: () => ({ policy: { levels: { setNoteCreatedAt: 'edit' } } }),
  },
  'notes.set-created-at.trashed-allowed': {
    rules: ['notes.set-created-at.trashed-refused'],
    does: 'created_at of a trashed note can be set',
    hooks: ignoringTrash('setNoteCreatedAt'),
  },
  'notes.set-created-at.missing-is-noop': {
    rules: ['notes.set-created-at.required'],
    does: 'a body without created_at answers 200',
    hooks: around('setNoteCreatedAt', (next) => (ctx, call) => {
      const note = pathNote(ctx, call);
      if (fields(call).created_at !== undefined || !note) return next(ctx, call);
      // Permission and trash refusals still apply: run with the current time, which changes nothing.
      return next(ctx, withFields(call, { created_at: new Date(note.createdAt).toISOString() }));
    }),
  },
  'notes.set-created-at.offset-optional': {
    rules: ['notes.set-created-at.offset-required'],
    does: 'created_at without an offset is read as UTC',
    hooks: () => ({ policy: { timestamps: { 'note.set_created_at': { offsetRequired: false } } } }),
  },
  // The original creation is never in the future, so backdate-only alone refuses future instants:
  // the not-future fault must lift that bound for them too, or nothing outside could observe it.
  'notes.set-created-at.future-accepted': {
    rules: ['notes.set-created-at.not-future'],
    does: 'a future created_at is accepted',
    hooks: () => ({
      policy: { timestamps: { 'note.set_created_at': { notFuture: false } } },
      ops: {
        setNoteCreatedAt: (next) => (ctx, call) => {
          const wanted = instant(fields(call).created_at);
          const note = pathNote(ctx, call);
          if (wanted === undefined || wanted <= ctx.clock.now() || !note) return next(ctx, call);
          return pretending(note as { originalCreatedAt: number }, 'originalCreatedAt', Number.POSITIVE_INFINITY, () =>
            next(ctx, call),
          );
        },
      },
    }),
  },
  'notes.set-created-at.bound-is-current': {
    rules: ['notes.set-created-at.original-creation-bound'],
    does: 'the limit is the current created_at, not the original creation',
    hooks: around('setNoteCreatedAt', (next) => (ctx, call) => {
      const note = pathNote(ctx, call);
      return note
        ? pretending(note as { originalCreatedAt: number }, 'originalCreatedAt', note.createdAt, () => next(ctx, call))
        : next(ctx, call);
    }),
  },
  // The original instant itself is refused: the reference runs as if the bound were a millisecond earlier.
  'notes.set-created-at.bound-exclusive': {
    rules: ['notes.set-created-at.original-inclusive'],
    does: 'a created_at equal to the original creation is refused',
    hooks: around('setNoteCreatedAt', (next) => (ctx, call) => {
      const note = pathNote(ctx, call);
      if (!note || instant(fields(call).created_at) !== note.originalCreatedAt) return next(ctx, call);
      return pretending(note as { originalCreatedAt: number }, 'originalCreatedAt', note.originalCreatedAt - 1, () =>
        next(ctx, call),
      );
    }),
  },
  'notes.set-created-at.forward-dating-allowed': {
    rules: ['notes.set-created-at.backdate-only'],
    does: 'any past created_at is accepted, also after the original creation',
    hooks: around('setNoteCreatedAt', (next) => (ctx, call) => {
      const note = pathNote(ctx, call);
      return note
        ? pretending(note as { originalCreatedAt: number }, 'originalCreatedAt', ctx.clock.now(), () => next(ctx, call))
        : next(ctx, call);
    }),
  },
  'quota.set-created-at-counts': {
    rules: ['quota.set-created-at.neutral'],
    does: 'set-created-at consumes quota',
    hooks: after('setNoteCreatedAt', (_ctx, call, view) => {
      countNoteCreate(call.user);
      return view;
    }),
  },
  'notes.set-created-at.bumps-version': {
    rules: ['notes.set-created-at.version-unchanged'],
    does: 'set-created-at increments the version',
    hooks: after('setNoteCreatedAt', (ctx, call) => {
      const note = pathNote(ctx, call)!;
      note.version++;
      return noteWrittenView(ctx, note);
    }),
  },
  'notes.set-created-at.touches-content': {
    rules: ['notes.set-created-at.metadata-only'],
    does: 'set-created-at writes front matter into the content',
    hooks: after('setNoteCreatedAt', (ctx, call) => {
      const note = pathNote(ctx, call)!;
      const content = `---\ncreated_at: ${new Date(note.createdAt).toISOString()}\n---\n${note.content}`;
      ctx.store.setNoteContent(note, contentFields(ctx, content, note));
      return noteWrittenView(ctx, note);
    }),
  },
  'notes.set-created-at.not-persisted': {
    rules: ['notes.set-created-at.applied'],
    does: 'the response shows the new created_at but it is not stored',
    hooks: around('setNoteCreatedAt', (next) => (ctx, call) => {
      const note = pathNote(ctx, call);
      const previous = note?.createdAt;
      const view = next(ctx, call);
      if (note && previous !== undefined) ctx.store.setNoteCreatedAt(note, previous);
      return view;
    }),
  },
  'notes.write-response-has-read-only-fields': {
    rules: ['notes.read-only-fields.absent-from-writes'],
    does: 'update and set-created-at responses carry audio_recording_ids',
    hooks: () => {
      const withAudio =
        (next: (ctx: ServiceContext, call: Call) => Record<string, unknown>) => (ctx: ServiceContext, call: Call) => {
          const view = next(ctx, call);
          return { ...view, audio_recording_ids: [...(pathNote(ctx, call)?.audioRecordingIds ?? [])] };
        };
      return { ops: { updateNote: withAudio, setNoteCreatedAt: withAudio } };
    },
  },
} satisfies Record<string, Fault>;
