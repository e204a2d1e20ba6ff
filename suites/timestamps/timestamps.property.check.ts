import fc from 'fast-check';
import type { RuleId } from '../../spec/rule-ids.js';
import { type CheckContext, checks, setupInstant, setupOk } from '../harness/index.js';
import { everyCheckRuns } from '../harness/patterns.js';

const { check } = checks();

type Offset = 'Z' | 'east' | 'west' | 'none';

interface Stamp {
  /** Milliseconds from now: negative is past. */
  fromNow: number;
  offset: Offset;
  /** Digits of fractional seconds written (0, 3 or 6). */
  fraction: 0 | 3 | 6;
  minutes: number;
}

/** Writes an instant with the given offset and precision (the instant itself is unchanged by the offset). */
function write(ms: number, s: Stamp): string {
  const offsetMinutes = s.offset === 'Z' || s.offset === 'none' ? 0 : (s.offset === 'east' ? 1 : -1) * s.minutes;
  const wall = new Date(ms + offsetMinutes * 60_000).toISOString();
  const base = wall.slice(0, 19);
  const frac = s.fraction === 0 ? '' : s.fraction === 3 ? wall.slice(19, 23) : `${wall.slice(19, 23)}000`;
  if (s.offset === 'none') return base + frac;
  if (s.offset === 'Z') return `${base + frac}Z`;
  const sign = offsetMinutes >= 0 ? '+' : '-';
  const abs = Math.abs(offsetMinutes);
  return `${base + frac}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

const SECOND = 1000;
const YEAR = 365 * 86_400_000;

/** Past or future by seconds to years, kept clear of the clock tolerance so "now" is never ambiguous. */
function stamps(t: CheckContext): fc.Arbitrary<Stamp> {
  const margin = t.ctx.clockToleranceMs + 2 * SECOND;
  const distance = fc.oneof(
    fc.integer({ min: margin, max: margin + 120 * SECOND }),
    fc.integer({ min: margin, max: 10 * YEAR }),
  );
  return fc.record({
    fromNow: fc.tuple(fc.boolean(), distance).map(([future, d]) => (future ? d : -d)),
    offset: fc.constantFrom<Offset>('Z', 'east', 'west', 'none'),
    fraction: fc.constantFrom<0 | 3 | 6>(0, 3, 6),
    minutes: fc.constantFrom(60, 90, 300, 330, 720, 840),
  });
}

/**
 * The stamps every run sends whatever the budget (a remote target's may allow no random run), so
 * each rule the check names is judged: one without an offset, one in the future where a future
 * rule is named, and a past one the target must accept (the positive control without which a
 * target refusing every stamp would pass the refusal rules; kit/oracle-verdicts.ts). Where every
 * check runs, the past one is left to them when `control` is false: they send past stamps with
 * offsets on every field (timestamps/note-create.check.ts, collections/create.check.ts, the lists'
 * and searches' windows), each judged accepted, and an accepted create here was two requests.
 */
function examples(t: CheckContext, future: boolean, control = true): Stamp[] {
  const margin = t.ctx.clockToleranceMs + 2 * SECOND;
  const stamp = (fromNow: number, offset: Offset): Stamp => ({ fromNow, offset, fraction: 3, minutes: 330 });
  return [
    stamp(-(margin + 3_600_000), 'none'),
    ...(future ? [stamp(margin + 86_400_000, 'Z')] : []),
    ...(control ? [stamp(-(margin + 86_400_000), 'east')] : []),
  ];
}

interface Field {
  what: string;
  offsetRule: RuleId;
  futureRule?: RuleId;
  send(t: CheckContext, value: string): Promise<unknown>;
}

const FIELDS: Field[] = [
  {
    what: 'note created_at',
    offsetRule: 'notes.create.created-at-offset-required',
    futureRule: 'notes.create.created-at-not-future',
    send: (t, v) => t.api.createNote({ content: t.data.content('Stamp'), created_at: v }),
  },
  {
    what: 'note updated_at',
    offsetRule: 'notes.create.updated-at-offset-required',
    futureRule: 'notes.create.updated-at-not-future',
    send: (t, v) => t.api.createNote({ content: t.data.content('Stamp'), updated_at: v }),
  },
  {
    what: 'collection created_at',
    offsetRule: 'collections.create.created-at-offset-required',
    futureRule: 'collections.create.created-at-not-future',
    send: (t, v) => t.api.createCollection({ title: t.data.word(), created_at: v }),
  },
  {
    what: 'collection updated_at',
    offsetRule: 'collections.create.updated-at-offset-required',
    futureRule: 'collections.create.updated-at-not-future',
    send: (t, v) => t.api.createCollection({ title: t.data.word(), updated_at: v }),
  },
  {
    what: 'note list bound',
    offsetRule: 'notes.list.bounds-offset-required',
    send: (t, v) => t.api.listNotes({ limit: 1, created_after: v }),
  },
  {
    what: 'search bound',
    offsetRule: 'notes.search.bounds-offset-required',
    send: (t, v) => t.api.searchNotes({ limit: 1 }, { query: 'stamp', updated_before: v }),
  },
];

// Each stamp is sent; the oracle judges the answer (kit/core/behaviour/inputs.ts): refused without an
// offset or in the future, accepted otherwise, and stored as the instant written (predict-*.ts).
for (const field of FIELDS) {
  const oracle = [field.offsetRule, ...(field.futureRule ? [field.futureRule] : [])];
  check(`${field.what}: offsets, precision and past or future instants (property)`, { oracle }, async (t) => {
    await t.property(
      stamps(t),
      async (s) => {
        await field.send(t, write(Date.now() + s.fromNow, s));
      },
      undefined,
      examples(t, field.futureRule !== undefined, !everyCheckRuns(t)),
    );
  });
}

check(
  'set-created-at: offsets, precision and past or future instants (property)',
  {
    oracle: ['notes.set-created-at.offset-required', 'notes.set-created-at.not-future', 'notes.set-created-at.applied'],
  },
  async (t) => {
    const note = setupOk(await t.api.createNote({ content: t.data.content('Stamped') }), 'create a note');
    // Past instants count back from the note's original creation, not from now: a "past" instant
    // later than the creation is legitimately refused (backdate-only), however long the run takes.
    const original = setupInstant(note.created_at, 'created_at of the new note');
    await t.property(
      stamps(t),
      async (s) => {
        await t.api.setCreatedAt(note.id, {
          created_at: write((s.fromNow > 0 ? Date.now() : original) + s.fromNow, s),
        });
      },
      undefined,
      examples(t, true),
    );
  },
);
