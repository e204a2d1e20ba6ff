import { NOT_IN_SMOKE } from '../harness/check.js';
import { checks, setupOk } from '../harness/index.js';

const { check } = checks();

/**
 * Updates of one note the document refuses, each with content of its own, then a read: the oracle
 * judges each refusal (kit/core/behaviour/predict-notes.ts, inputs.ts) and, on the read, that none
 * of them changed the note (a refused request's content seen there breaks its rule).
 */
check(
  'an update with a stale, ahead, missing, non-positive or non-integer version, without string content, or with an offset-less updated_at is refused',
  {
    smoke: true,
    oracle: [
      'notes.update.version-stale-refused',
      'notes.update.version-ahead-refused',
      'notes.update.version-required',
      'notes.update.version-min-1',
      'notes.update.field-types',
      'notes.update.content-required',
      'notes.update.updated-at-offset-required',
    ],
  },
  async (t) => {
    // One update behind it, so the version the note was created with is stale.
    const note = await t.data.note(t.data.content('Refusals', 'updates of this note must be refused'));
    const current = setupOk(
      await t.api.updateNote(note.id, { content: t.data.content('Current'), version: note.version }),
      'update the note once',
    ).version as number;
    const content = (i: number) => t.data.content(`Must not be stored ${i}`);
    const bodies: Array<Record<string, unknown>> = [
      { content: content(0), version: note.version },
      { content: content(1), version: current + 1 },
      { content: content(2), version: current + 1000 },
      { content: content(3) },
      { content: content(4), version: 0 },
      { content: content(5), version: -1 },
      // Each of these at the current version, so that only the field judged can be the reason.
      { content: 42, version: current },
      { content: [content(6)], version: current },
      { content: content(7), version: String(current) },
      { content: content(8), version: current + 0.5 },
      { version: current },
      { content: content(9), version: current, updated_at: '2021-03-04T05:06:07' },
    ];
    // The smoke tier judges a stale and an ahead version only.
    const smoke = t.ctx.tier === 'smoke';
    if (smoke)
      t.skipRule(
        [
          'notes.update.field-types',
          'notes.update.content-required',
          'notes.update.updated-at-offset-required',
          'notes.update.version-required',
          'notes.update.version-min-1',
        ],
        NOT_IN_SMOKE,
      );
    for (const body of smoke ? bodies.slice(0, 2) : bodies) await t.api.updateNote(note.id, body);
    await t.api.getNote(note.id);
  },
);
