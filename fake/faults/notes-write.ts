import type { Call } from '../http/routes.js';
import { contentFields } from '../service/content.js';
import type { ServiceContext } from '../service/context.js';
import { countNoteCreate } from '../service/quota.js';
import { parseTimestamp } from '../service/validate.js';
import { noteCreatedView, noteWrittenView } from '../service/views.js';
import type { NoteRecord } from '../store/records.js';
import type { FaultName } from './catalogue.js';
import type { FaultFactory } from './hooks.js';
import { after, around, before, createdNote, fields, pathNote, pretending, withFields } from './support.js';

/** The existing note a create names by id, if any. */
const existingFor = (ctx: ServiceContext, call: Call): NoteRecord | undefined => {
  const id = fields(call).id;
  return typeof id === 'string' ? ctx.store.notes.get(id.toLowerCase()) ?? ctx.store.notes.get(id) : undefined;
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
const fixCreated = (change: (ctx: ServiceContext, note: NoteRecord, call: Call) => void): ((ctx: ServiceContext, call: Call, view: Record<string, unknown>) => Record<string, unknown>) =>
  (ctx, call, view) => {
    const note = createdNote(ctx, view);
    change(ctx, note, call);
    return noteCreatedView(ctx, note);
  };
const setOriginal = (note: NoteRecord, ms: number) => {
  (note as { originalCreatedAt: number }).originalCreatedAt = ms;
};
/** Runs a write on a trashed note as if it were active (the trash refusal is skipped). */
const ignoringTrash = (op: string): FaultFactory =>
  around(op, (next) => (ctx, call) => {
    const note = pathNote(ctx, call);
    return note && note.trashedAt !== null ? pretending(note, 'trashedAt', null, () => next(ctx, call)) : next(ctx, call);
  });
/** Replaces the version the client sent, when `when` holds, with the current one (the check passes). */
const versionForced = (when: (sent: unknown, current: number) => boolean): FaultFactory =>
  before('updateNote', (ctx, call) => {
    const note = pathNote(ctx, call);
    const sent = fields(call).version;
    return note && when(sent, note.version) ? withFields(call, { version: note.version }) : call;
  });

export const NOTES_WRITE_FAULTS: Partial<Record<FaultName, FaultFactory>> = {
  // ---- create ----
  'notes.create.content-optional': before('createNote', (_ctx, call) =>
    (fields(call).content === undefined ? withFields(call, { content: '' }) : call)),
  'notes.create.types-coerced': before('createNote', (_ctx, call) => {
    const content = fields(call).content;
    return content !== undefined && typeof content !== 'string' ? withFields(call, { content: String(content) }) : call;
  }),
  // Over 200,000 characters is also over 200,000 bytes: the off-by-one lifts both limits by one.
  'notes.create.content-limit-off-by-one': () => ({ policy: { note: { createContent: { maxChars: 200_001, maxBytes: 200_001 } } } }),
  'notes.create.content-bytes-unchecked': () => ({ policy: { note: { createContent: { maxBytes: undefined } } } }),
  'notes.create.content-altered': before('createNote', (_ctx, call) => {
    const content = fields(call).content;
    return typeof content === 'string' ? withFields(call, { content: content.trimEnd() }) : call;
  }),
  'notes.create.created-at-offset-optional': () => ({ policy: { timestamps: { 'note.create.created_at': { offsetRequired: false } } } }),
  'notes.create.created-at-future-accepted': () => ({ policy: { timestamps: { 'note.create.created_at': { notFuture: false } } } }),
  'notes.create.updated-at-offset-optional': () => ({ policy: { timestamps: { 'note.create.updated_at': { offsetRequired: false } } } }),
  'notes.create.updated-at-future-accepted': () => ({ policy: { timestamps: { 'note.create.updated_at': { notFuture: false } } } }),
  'notes.create.version-starts-at-zero': () => ({ policy: { note: { firstVersion: 0 } } }),
  'notes.create.id-ignored': before('createNote', (_ctx, call) => withFields(call, { id: undefined })),
  'notes.create.id-not-validated': () => ({ policy: { note: { validateSuppliedIds: false } } }),
  'notes.create.id-upsert': around('createNote', (next) => (ctx, call) => {
    const existing = existingFor(ctx, call);
    return existing ? overwrite(ctx, existing, fields(call).content) : next(ctx, call);
  }),
  'notes.create.conflict-overwrites': around('createNote', (next) => (ctx, call) => {
    const existing = existingFor(ctx, call);
    if (existing && typeof fields(call).content === 'string') overwrite(ctx, existing, fields(call).content);
    return next(ctx, call);
  }),
  'notes.create.trashed-id-reused': before('createNote', (ctx, call) => {
    const existing = existingFor(ctx, call);
    if (existing && existing.trashedAt !== null) ctx.store.deleteNote(existing);
    return call;
  }),
  'notes.create.foreign-id-regenerated': before('createNote', (ctx, call) => {
    const existing = existingFor(ctx, call);
    return existing && existing.ownerId !== call.user.id ? withFields(call, { id: undefined }) : call;
  }),
  'notes.create.ids-not-uuid': around('createNote', (next) => (ctx, call) => {
    const view = next(ctx, call);
    if (fields(call).id !== undefined) return view;
    // The broken server hands out its own id format: the note is stored again under it.
    const note = createdNote(ctx, view);
    const links = [...note.collectionIds].map((id) => ctx.store.collections.get(id)!);
    ctx.store.deleteNote(note);
    const renamed: NoteRecord = { ...note, id: `note_${note.id.replace(/-/g, '').slice(0, 16)}`, collectionIds: new Set() };
    ctx.store.insertNote(renamed);
    for (const c of links) ctx.store.link(renamed, c);
    return noteCreatedView(ctx, renamed);
  }),
  'notes.create.created-at-ignored': after('createNote', fixCreated((ctx, note) => {
    ctx.store.setNoteCreatedAt(note, ctx.clock.now());
    setOriginal(note, note.createdAt);
  })),
  'notes.create.created-at-ignores-updated-at': after('createNote', fixCreated((ctx, note, call) => {
    if (fields(call).created_at !== undefined || fields(call).updated_at === undefined) return;
    ctx.store.setNoteCreatedAt(note, ctx.clock.now());
    setOriginal(note, note.createdAt);
  })),
  'notes.create.created-at-default-stale': after('createNote', fixCreated((ctx, note, call) => {
    if (fields(call).created_at !== undefined || fields(call).updated_at !== undefined) return;
    ctx.store.setNoteCreatedAt(note, ctx.clock.now() - 3_600_000);
    setOriginal(note, note.createdAt);
  })),
  'notes.create.updated-at-ignored': after('createNote', fixCreated((ctx, note) => ctx.store.setNoteUpdatedAt(note, ctx.clock.now()))),
  'notes.create.updated-at-copies-created-at': after('createNote', fixCreated((ctx, note, call) => {
    const created = instant(fields(call).created_at);
    if (fields(call).updated_at === undefined && created !== undefined) ctx.store.setNoteUpdatedAt(note, created);
  })),
  'notes.create.response-has-trashed-at': after('createNote', (_ctx, _call, view) => ({ ...view, trashed_at: null })),

  // ---- update ----
  'notes.update.access-level-can-edit': () => ({ policy: { levels: { updateNote: 'access' } } }),
  'notes.update.trashed-allowed': ignoringTrash('updateNote'),
  'notes.update.content-limit-off-by-one': () => ({ policy: { note: { updateContent: { maxChars: 200_001 } } } }),
  'notes.update.types-coerced': before('updateNote', (_ctx, call) => {
    const { content, version } = fields(call);
    return withFields(call, {
      ...(typeof content === 'number' ? { content: String(content) } : {}),
      ...(typeof version === 'string' ? { version: Number(version) } : {}),
    });
  }),
  'notes.update.version-optional': versionForced((sent) => sent === undefined),
  'notes.update.version-zero-forces': versionForced((sent) => sent === 0),
  'notes.update.stale-version-accepted': versionForced((sent, current) => typeof sent === 'number' && sent >= 1 && sent < current),
  'notes.update.ahead-version-accepted': versionForced((sent, current) => typeof sent === 'number' && Number.isInteger(sent) && sent > current),
  'notes.update.updated-at-offset-optional': () => ({ policy: { timestamps: { 'note.update.updated_at': { offsetRequired: false } } } }),
  'notes.update.content-appended': before('updateNote', (ctx, call) => {
    const note = pathNote(ctx, call);
    const content = fields(call).content;
    return note && typeof content === 'string' ? withFields(call, { content: `${note.content}\n${content}` }) : call;
  }),
  'notes.update.version-not-incremented': after('updateNote', (ctx, call, view) => {
    const note = pathNote(ctx, call)!;
    note.version--;
    return noteWrittenView(ctx, note);
  }),
  'notes.update.updated-at-ignored': after('updateNote', (ctx, call, view) => {
    if (fields(call).updated_at === undefined) return view;
    const note = pathNote(ctx, call)!;
    ctx.store.setNoteUpdatedAt(note, ctx.clock.now());
    return noteWrittenView(ctx, note);
  }),
  'notes.update.updated-at-unchanged': around('updateNote', (next) => (ctx, call) => {
    const previous = pathNote(ctx, call)?.updatedAt;
    const view = next(ctx, call);
    if (fields(call).updated_at !== undefined || previous === undefined) return view;
    const note = pathNote(ctx, call)!;
    ctx.store.setNoteUpdatedAt(note, previous);
    return noteWrittenView(ctx, note);
  }),
  'notes.update.response-has-old-version': around('updateNote', (next) => (ctx, call) => {
    const previous = pathNote(ctx, call)?.version;
    const view = next(ctx, call);
    return { ...view, version: previous };
  }),

  // ---- set created-at ----
  'notes.set-created-at.editor-allowed': () => ({ policy: { levels: { setNoteCreatedAt: 'edit' } } }),
  'notes.set-created-at.trashed-allowed': ignoringTrash('setNoteCreatedAt'),
  'notes.set-created-at.missing-is-noop': around('setNoteCreatedAt', (next) => (ctx, call) => {
    const note = pathNote(ctx, call);
    if (fields(call).created_at !== undefined || !note) return next(ctx, call);
    // Permission and trash refusals still apply: run with the current time, which changes nothing.
    return next(ctx, withFields(call, { created_at: new Date(note.createdAt).toISOString() }));
  }),
  'notes.set-created-at.offset-optional': () => ({ policy: { timestamps: { 'note.set_created_at': { offsetRequired: false } } } }),
  // The original creation is never in the future, so backdate-only alone refuses future instants:
  // the not-future fault must lift that bound for them too, or nothing outside could observe it.
  'notes.set-created-at.future-accepted': () => ({
    policy: { timestamps: { 'note.set_created_at': { notFuture: false } } },
    ops: {
      setNoteCreatedAt: (next) => (ctx, call) => {
        const wanted = instant(fields(call).created_at);
        const note = pathNote(ctx, call);
        if (wanted === undefined || wanted <= ctx.clock.now() || !note) return next(ctx, call);
        return pretending(note as { originalCreatedAt: number }, 'originalCreatedAt', Number.POSITIVE_INFINITY, () => next(ctx, call));
      },
    },
  }),
  'notes.set-created-at.bound-is-current': around('setNoteCreatedAt', (next) => (ctx, call) => {
    const note = pathNote(ctx, call);
    return note ? pretending(note as { originalCreatedAt: number }, 'originalCreatedAt', note.createdAt, () => next(ctx, call)) : next(ctx, call);
  }),
  // The original instant itself is refused: the reference runs as if the bound were a millisecond earlier.
  'notes.set-created-at.bound-exclusive': around('setNoteCreatedAt', (next) => (ctx, call) => {
    const note = pathNote(ctx, call);
    if (!note || instant(fields(call).created_at) !== note.originalCreatedAt) return next(ctx, call);
    return pretending(note as { originalCreatedAt: number }, 'originalCreatedAt', note.originalCreatedAt - 1, () => next(ctx, call));
  }),
  'notes.set-created-at.forward-dating-allowed': around('setNoteCreatedAt', (next) => (ctx, call) => {
    const note = pathNote(ctx, call);
    return note ? pretending(note as { originalCreatedAt: number }, 'originalCreatedAt', ctx.clock.now(), () => next(ctx, call)) : next(ctx, call);
  }),
  'quota.set-created-at-counts': after('setNoteCreatedAt', (_ctx, call, view) => {
    countNoteCreate(call.user);
    return view;
  }),
  'notes.set-created-at.bumps-version': after('setNoteCreatedAt', (ctx, call) => {
    const note = pathNote(ctx, call)!;
    note.version++;
    return noteWrittenView(ctx, note);
  }),
  'notes.set-created-at.touches-content': after('setNoteCreatedAt', (ctx, call) => {
    const note = pathNote(ctx, call)!;
    const content = `---\ncreated_at: ${new Date(note.createdAt).toISOString()}\n---\n${note.content}`;
    ctx.store.setNoteContent(note, contentFields(ctx, content, note));
    return noteWrittenView(ctx, note);
  }),
  'notes.set-created-at.not-persisted': around('setNoteCreatedAt', (next) => (ctx, call) => {
    const note = pathNote(ctx, call);
    const previous = note?.createdAt;
    const view = next(ctx, call);
    if (note && previous !== undefined) ctx.store.setNoteCreatedAt(note, previous);
    return view;
  }),
  'notes.write-response-has-read-only-fields': () => {
    const withAudio = (next: (ctx: ServiceContext, call: Call) => Record<string, unknown>) => (ctx: ServiceContext, call: Call) => {
      const view = next(ctx, call);
      return { ...view, audio_recording_ids: [...(pathNote(ctx, call)?.audioRecordingIds ?? [])] };
    };
    return { ops: { updateNote: withAudio, setNoteCreatedAt: withAudio } };
  },
};
