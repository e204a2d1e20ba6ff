import { checks, setupOk } from '../harness/index.js';
import { futureIso, refusedCreates } from '../harness/patterns.js';

const { check } = checks();

/**
 * Note creates with both, one or neither timestamp supplied, and with timestamps the document
 * refuses (then looked for in one list read), and instants written with far offsets: the oracle judges
 * every answer (kit/core/behaviour/predict-notes.ts, inputs.ts).
 */
check(
  'note create keeps supplied timestamps and fills the omitted ones as documented',
  {
    oracle: [
      'notes.create.created-at-honoured',
      'notes.create.updated-at-honoured',
      'notes.create.created-at-defaults-to-updated-at',
      'notes.create.created-at-defaults-to-server-time',
      'notes.create.updated-at-defaults-to-server-time',
    ],
  },
  async (t) => {
    const w = t.data.window();
    const [created, updated] = [w.at(0), w.at(30_000)];
    for (const times of [
      { created_at: created, updated_at: updated },
      { updated_at: updated },
      {},
      { created_at: created },
    ])
      await t.api.createNote({ content: t.data.content('Stamped'), ...times });
  },
);

check(
  'note create refuses timestamps without an offset or in the future, and creates nothing',
  {
    oracle: [
      'notes.create.created-at-offset-required',
      'notes.create.updated-at-offset-required',
      'notes.create.created-at-not-future',
      'notes.create.updated-at-not-future',
    ],
  },
  async (t) => {
    const content = t.data.content('Refused timestamps');
    await refusedCreates(
      t.api,
      'note',
      [
        { created_at: '2021-05-06T07:08:09' },
        { created_at: '2021-05-06T07:08:09.123' },
        { created_at: '2021-05-06 07:08:09' },
        { updated_at: '2021-05-06T07:08:09' },
        { created_at: futureIso(t) },
        { created_at: futureIso(t, 5 * 365 * 86_400_000) },
        { updated_at: futureIso(t) },
      ].map((times) => ({ content, ...times })),
    );
  },
);

/**
 * A past instant whose wall clock at a positive offset reads later than now in UTC (+05:30 when the
 * instant is recent enough for that, else +14:00: accepted, and read as its instant), a future one
 * whose wall clock at -12:00 reads earlier (refused), and a backdated one at +05:30.
 */
check(
  'timestamps with offsets are read as the instants they denote, and compared as instants',
  { oracle: ['conventions.timestamps.offset-honoured', 'conventions.timestamps.compare-instants'] },
  async (t) => {
    const wall = (ms: number, offsetHours: number) => new Date(ms + offsetHours * 3_600_000).toISOString().slice(0, 19);
    const agoMs = Math.max(3_600_000, 2 * t.ctx.clockToleranceMs);
    const pastMs = Date.now() - agoMs;
    const farEast = agoMs < 5 * 3_600_000 ? `${wall(pastMs, 5.5)}+05:30` : `${wall(pastMs, 14)}+14:00`;
    await t.api.createNote({ content: t.data.content('Far east'), created_at: farEast });
    await t.api.createNote({
      content: t.data.content('Far west'),
      created_at: `${wall(Date.now() + agoMs, -12)}-12:00`,
    });
    const instantMs = t.data.window().ms(0);
    setupOk(
      await t.api.createNote({ content: t.data.content('Offset'), created_at: `${wall(instantMs, 5.5)}+05:30` }),
      'create with a +05:30 created_at',
    );
  },
);
