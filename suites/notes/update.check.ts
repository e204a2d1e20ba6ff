import { expect } from 'vitest';
import { checks, expectRefused, expectSameInstant, expectServerTime, setupOk, show } from '../harness/index.js';
import { noteState, pastIso } from '../harness/patterns.js';
import { expectRefusalsChangeNothing } from '../harness/refusals.js';

const { check } = checks();

check(
  'an update at the current version replaces the content and yields a new version that the next update accepts',
  {
    rules: ['notes.update.content-replaced', 'notes.update.version-changes', 'notes.update.version-from-read-or-write'],
  },
  async (t) => {
    const note = await t.data.note(t.data.content('First title', 'first body, to be replaced'));
    const content = t.data.content('Second title', 'a new body');
    const x = await t.api.updateNote(note.id, { content, version: note.version });
    const updated = setupOk(x, 'update the note at its current version');
    await t.verify('notes.update.content-replaced', async () => {
      expect(updated.content, 'the update response has exactly the content sent').toBe(content);
      expect((await noteState(t.api, note.id)).content, 'a read returns exactly the content sent (no merge)').toBe(
        content,
      );
    });
    await t.verify('notes.update.version-changes', () => {
      expect(
        Number.isInteger(updated.version),
        `the new version is an integer: ${JSON.stringify(updated.version)}`,
      ).toBe(true);
      expect(updated.version, 'an update changes the version').not.toBe(note.version);
    });
    await t.verify('notes.update.version-from-read-or-write', async () => {
      const next = await t.api.updateNote(note.id, { content: t.data.content('Third'), version: updated.version });
      expect(next.status, `the version from the latest write response is accepted: ${show(next)}`).toBe(200);
      const read = await noteState(t.api, note.id);
      const fromRead = await t.api.updateNote(note.id, { content: t.data.content('Fourth'), version: read.version });
      expect(fromRead.status, `the version from a read is accepted: ${show(fromRead)}`).toBe(200);
    });
  },
);

check(
  'an update with a stale, ahead, missing or non-positive version is refused and changes nothing',
  {
    smoke: true,
    rules: [
      'notes.update.version-stale-refused',
      'notes.update.version-ahead-refused',
      'notes.update.version-required',
      'notes.update.version-min-1',
    ],
  },
  async (t) => {
    const note = await t.data.note();
    const current = setupOk(
      await t.api.updateNote(note.id, { content: t.data.content('Current'), version: note.version }),
      'update once',
    ).version as number;
    const before = await noteState(t.api, note.id);
    const attempts: Array<[string, Record<string, unknown>, string]> = [
      [
        'notes.update.version-stale-refused',
        { version: note.version },
        'an update with the version before the last update',
      ],
      [
        'notes.update.version-ahead-refused',
        { version: current + 1 },
        'an update with a version ahead of the current one',
      ],
      ['notes.update.version-ahead-refused', { version: current + 1000 }, 'an update with a version far ahead'],
      ['notes.update.version-required', {}, 'an update without version'],
      ['notes.update.version-min-1', { version: 0 }, 'an update with version 0'],
      ['notes.update.version-min-1', { version: -1 }, 'an update with version -1'],
    ];
    // Each attempt sends content of its own, so a change shows in the one read after them all.
    await expectRefusalsChangeNothing(
      t,
      attempts.map(([rule, extra, what], i) => ({
        rules: rule,
        what,
        send: () => t.api.updateNote(note.id, { content: t.data.content(`Must not be stored ${i}`), ...extra }),
      })),
      () => noteState(t.api, note.id),
      before,
    );
  },
);

check(
  'updated_at on update: a supplied instant is kept, without one it is server time, and an offset is required',
  {
    rules: [
      'notes.update.updated-at-honoured',
      'notes.update.updated-at-defaults-to-server-time',
      'notes.update.updated-at-offset-required',
    ],
  },
  async (t) => {
    const past = pastIso(t, 3 * 86_400_000);
    const note = await t.data.note(undefined, { updated_at: past });
    const supplied = pastIso(t, 86_400_000);
    const x = await t.api.updateNote(note.id, {
      content: t.data.content('Supplied'),
      version: note.version,
      updated_at: supplied,
    });
    const a = setupOk(x, 'update with updated_at');
    await t.verify('notes.update.updated-at-honoured', async () => {
      expectSameInstant(a.updated_at, supplied, 'the update response updated_at', t.precisionMs);
      expectSameInstant(
        (await noteState(t.api, note.id)).updated_at,
        supplied,
        'updated_at on a read after the update',
        t.precisionMs,
      );
    });
    const sentAt = Date.now();
    const y = await t.api.updateNote(note.id, { content: t.data.content('Server time'), version: a.version });
    const b = setupOk(y, 'update without updated_at');
    await t.verify('notes.update.updated-at-defaults-to-server-time', () => {
      expectServerTime(b.updated_at, y, sentAt, t.ctx.clockToleranceMs, 'updated_at after an update without one');
    });
    const before = await noteState(t.api, note.id);
    const z = await t.api.updateNote(note.id, {
      content: t.data.content('No offset'),
      version: b.version,
      updated_at: '2021-03-04T05:06:07',
    });
    await t.verify('notes.update.updated-at-offset-required', async () => {
      expectRefused(z, 'an update whose updated_at has no timezone offset');
      expect(await noteState(t.api, note.id)).toEqual(before);
    });
  },
);

check(
  'an update whose content is not a string or whose version is not an integer is refused and changes nothing',
  {
    rules: ['notes.update.field-types'],
  },
  async (t) => {
    const note = await t.data.note();
    const before = await noteState(t.api, note.id);
    const content = t.data.content('Typed update');
    const cases: Array<[string, Record<string, unknown>]> = [
      ['content as a number', { content: 42, version: note.version }],
      ['content as an array', { content: [content], version: note.version }],
      ['the version as a numeric string', { content, version: String(note.version) }],
      ['a fractional version', { content, version: note.version + 0.5 }],
    ];
    await expectRefusalsChangeNothing(
      t,
      cases.map(([what, body]) => ({
        rules: 'notes.update.field-types',
        what: `an update with ${what}`,
        send: () => t.api.updateNote(note.id, body),
      })),
      () => noteState(t.api, note.id),
      before,
    );
  },
);
