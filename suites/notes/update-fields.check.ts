import { checks, setupOk } from '../harness/index.js';
import { noteState, pastIso } from '../harness/patterns.js';

const { check } = checks();

/**
 * One note takes the accepted updates (the refused ones go to the note of update.check.ts): the
 * oracle judges each answer and each read (kit/core/behaviour/predict-notes.ts): the content
 * replaced, a new version, updated_at as supplied or the server time, created_at kept, and the
 * version from a read and from the latest write both accepted.
 */
check(
  'an update replaces the content with a new version the next update accepts; updated_at is kept if supplied, else server time; created_at stays',
  {
    oracle: [
      'notes.update.content-replaced',
      'notes.update.version-changes',
      'notes.update.version-from-read-or-write',
      'notes.update.updated-at-honoured',
      'notes.update.updated-at-defaults-to-server-time',
      'notes.update.created-at-unchanged',
    ],
  },
  async (t) => {
    // Created years back and updated days back, so "left alone" and "set to the time of the update"
    // cannot look alike for either.
    const w = t.data.window();
    const note = await t.data.note(t.data.content('First title', 'first body, to be replaced'), {
      created_at: w.at(0),
      updated_at: pastIso(t, 3 * 86_400_000),
    });
    // The version from the create response (a write), with updated_at supplied.
    const content = t.data.content('Second title', 'a new body');
    await t.api.updateNote(note.id, { content, version: note.version, updated_at: pastIso(t, 86_400_000) });
    // The version from a read, without updated_at, and the same content again (a repeat: the version and
    // updated_at still move, and it is a situation the explorer visits otherwise); then the version from
    // that write's answer, with new content.
    const read = await noteState(t.api, note.id);
    const y = setupOk(await t.api.updateNote(note.id, { content, version: read.version }), 'update from a read');
    await t.api.updateNote(note.id, { content: t.data.content('Fourth'), version: y.version });
    await t.api.getNote(note.id);
  },
);
