import { checks } from '../harness/index.js';
import { refusedCreates } from '../harness/patterns.js';

const { check } = checks();

// The input alone says each of these is refused (kit/core/behaviour/inputs.ts), and one list read
// afterwards (a read of each id when the list is longer than a page) that nothing was made under them.
check(
  'a create without content or with fields of the wrong JSON type is refused and creates nothing',
  { oracle: ['notes.create.content-required', 'notes.create.field-types'] },
  async (t) => {
    const content = t.data.content('Typed');
    await refusedCreates(t.api, 'note', [
      {},
      { collection_titles: [] },
      { content: 42 },
      { content: [content] },
      { content, collection_ids: 'not-an-array' },
      { content, collection_titles: [7] },
      { content, created_at: 1_700_000_000 },
    ]);
  },
);

check('a create whose id is not a UUID is refused', { oracle: ['notes.create.id-must-be-uuid'] }, async (t) => {
  for (const id of ['note-1', '12345', '0b6f7a52-3c1e-4f0e-9d7a-1b2c3d4e5f6'])
    await t.api.createNote({ id, content: t.data.content('Bad id') });
});
