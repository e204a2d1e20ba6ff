import { checks, expectRefused } from '../harness/index.js';
import { expectCreatesRefused } from '../harness/patterns.js';

const { check } = checks();

check(
  'a create without content or with fields of the wrong JSON type is refused and creates nothing',
  { rules: ['notes.create.content-required', 'notes.create.field-types'] },
  async (t) => {
    const content = t.data.content('Typed');
    const types: Array<[string, Record<string, unknown>]> = [
      ['content as a number', { content: 42 }],
      ['content as an array', { content: [content] }],
      ['collection_ids as a string', { content, collection_ids: 'not-an-array' }],
      ['collection_titles holding a number', { content, collection_titles: [7] }],
      ['created_at as a number', { content, created_at: 1_700_000_000 }],
    ];
    // One list read afterwards tells whether any of them made a note.
    await expectCreatesRefused(t, 'note', [
      { rules: 'notes.create.content-required', body: {}, what: 'a create without content' },
      {
        rules: 'notes.create.content-required',
        body: { collection_titles: [] },
        what: 'a create with other fields but no content',
      },
      ...types.map(([what, body]) => ({
        rules: 'notes.create.field-types' as const,
        body,
        what: `a create with ${what}`,
      })),
    ]);
  },
);

check('a create whose id is not a UUID is refused', { rules: ['notes.create.id-must-be-uuid'] }, async (t) => {
  for (const id of ['note-1', '12345', '0b6f7a52-3c1e-4f0e-9d7a-1b2c3d4e5f6']) {
    const x = await t.api.createNote({ id, content: t.data.content('Bad id') });
    await t.verify('notes.create.id-must-be-uuid', () => expectRefused(x, `a create with id ${JSON.stringify(id)}`));
  }
});
