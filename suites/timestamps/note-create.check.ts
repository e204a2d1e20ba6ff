import { expect } from 'vitest';
import { checks, expectSameInstant, expectServerTime, setupOk } from '../harness/index.js';
import { expectCreatesRefused, futureIso } from '../harness/patterns.js';

const { check } = checks();

check(
  'note create keeps supplied timestamps and fills the omitted ones as documented',
  {
    rules: [
      'notes.create.created-at-honoured',
      'notes.create.updated-at-honoured',
      'notes.create.created-at-defaults-to-updated-at',
      'notes.create.created-at-defaults-to-server-time',
      'notes.create.updated-at-defaults-to-server-time',
    ],
  },
  async (t) => {
    const w = t.data.window();
    const created = w.at(0);
    const updated = w.at(30_000);
    const both = setupOk(
      await t.api.createNote({ content: t.data.content('Both'), created_at: created, updated_at: updated }),
      'create with both timestamps',
    );
    await t.verify('notes.create.created-at-honoured', () =>
      expectSameInstant(both.created_at, created, 'created_at', t.precisionMs),
    );
    await t.verify('notes.create.updated-at-honoured', () =>
      expectSameInstant(both.updated_at, updated, 'updated_at', t.precisionMs),
    );

    const onlyUpdated = setupOk(
      await t.api.createNote({ content: t.data.content('Only updated'), updated_at: updated }),
      'create with only updated_at',
    );
    await t.verify('notes.create.created-at-defaults-to-updated-at', () => {
      expectSameInstant(
        onlyUpdated.created_at,
        updated,
        'with created_at omitted, created_at takes the given updated_at',
        t.precisionMs,
      );
    });

    let sentAt = Date.now();
    const none = await t.api.createNote({ content: t.data.content('Neither') });
    const n = setupOk(none, 'create with no timestamps');
    await t.verify('notes.create.created-at-defaults-to-server-time', () => {
      expectServerTime(n.created_at, none, sentAt, t.ctx.clockToleranceMs, 'created_at with both timestamps omitted');
    });

    sentAt = Date.now();
    const onlyCreated = await t.api.createNote({ content: t.data.content('Only created'), created_at: created });
    const c = setupOk(onlyCreated, 'create with only created_at');
    await t.verify('notes.create.updated-at-defaults-to-server-time', () => {
      expectServerTime(
        c.updated_at,
        onlyCreated,
        sentAt,
        t.ctx.clockToleranceMs,
        'updated_at with only created_at given (server time, not created_at)',
      );
    });
    await t.verify('notes.create.created-at-honoured', () =>
      expectSameInstant(c.created_at, created, 'created_at', t.precisionMs),
    );
  },
);

check(
  'note create refuses timestamps without an offset or in the future, and creates nothing',
  {
    rules: [
      'notes.create.created-at-offset-required',
      'notes.create.updated-at-offset-required',
      'notes.create.created-at-not-future',
      'notes.create.updated-at-not-future',
    ],
  },
  async (t) => {
    const content = t.data.content('Refused timestamps');
    const noOffset = ['2021-05-06T07:08:09', '2021-05-06T07:08:09.123', '2021-05-06 07:08:09'];
    await expectCreatesRefused(t, 'note', [
      ...noOffset.map((local) => ({
        rules: 'notes.create.created-at-offset-required' as const,
        body: { content, created_at: local },
        what: `created_at ${local} (no offset)`,
      })),
      {
        rules: 'notes.create.updated-at-offset-required',
        body: { content, updated_at: '2021-05-06T07:08:09' },
        what: 'updated_at without an offset',
      },
      {
        rules: 'notes.create.created-at-not-future',
        body: { content, created_at: futureIso(t) },
        what: 'created_at tomorrow',
      },
      {
        rules: 'notes.create.created-at-not-future',
        body: { content, created_at: futureIso(t, 5 * 365 * 86_400_000) },
        what: 'created_at in five years',
      },
      {
        rules: 'notes.create.updated-at-not-future',
        body: { content, updated_at: futureIso(t) },
        what: 'updated_at tomorrow',
      },
    ]);
  },
);

check(
  'timestamps with offsets are read as the instants they denote, and compared as instants',
  {
    rules: ['conventions.timestamps.offset-honoured', 'conventions.timestamps.compare-instants'],
  },
  async (t) => {
    const tolerance = t.ctx.clockToleranceMs;
    const wall = (ms: number, offsetHours: number) => new Date(ms + offsetHours * 3_600_000).toISOString().slice(0, 19);
    // A past instant whose wall clock at a positive offset reads later than now in UTC: +05:30 (an
    // offset with minutes) when the instant is recent enough for that, else +14:00. Accepted, it also
    // shows the offset honoured.
    const agoMs = Math.max(3_600_000, 2 * tolerance);
    const pastMs = Date.now() - agoMs;
    const halfHour = agoMs < 5 * 3_600_000;
    const farEast = halfHour ? `${wall(pastMs, 5.5)}+05:30` : `${wall(pastMs, 14)}+14:00`;
    const east = await t.api.createNote({ content: t.data.content('Far east'), created_at: farEast });
    // A future instant whose wall clock at -12:00 reads earlier than now in UTC.
    const futureMs = Date.now() + agoMs;
    const farWest = `${wall(futureMs, -12)}-12:00`;
    const west = await t.api.createNote({ content: t.data.content('Far west'), created_at: farWest });
    await t.verify('conventions.timestamps.compare-instants', () => {
      expect(east.status, `${farEast} is in the past (as an instant) and must be accepted`).toBe(200);
      expect(
        west.status >= 400 && west.status < 500,
        `${farWest} is in the future (as an instant) and must be refused, got ${west.status}`,
      ).toBe(true);
    });
    if (east.status === 200 && halfHour) {
      const x = setupOk(east, 'create with a +05:30 created_at');
      await t.verify('conventions.timestamps.offset-honoured', () => {
        expectSameInstant(x.created_at, pastMs - (pastMs % 1000), `created_at written as ${farEast}`, t.precisionMs);
      });
      return;
    }
    // Refused (compare-instants' failure), or written at +14:00: a backdated note in the run's window
    // shows whether +05:30 is honoured. 10:00 at +05:30 is 04:30 UTC.
    const w = t.data.window();
    const instantMs = w.ms(0);
    const x = setupOk(
      await t.api.createNote({ content: t.data.content('Offset'), created_at: `${wall(instantMs, 5.5)}+05:30` }),
      'create with a +05:30 created_at',
    );
    await t.verify('conventions.timestamps.offset-honoured', () => {
      expectSameInstant(x.created_at, instantMs - (instantMs % 1000), 'created_at written with +05:30', t.precisionMs);
    });
  },
);
