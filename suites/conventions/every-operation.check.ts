import { expect } from 'vitest';
import { readDateTime } from '../../spec/patterns.js';
import { checks, type Exchange, setupOk, show } from '../harness/index.js';

const { check } = checks();

/** Every timestamp-looking field (*_at) anywhere in a JSON value. */
function timestamps(value: unknown, path = ''): Array<[string, unknown]> {
  if (Array.isArray(value)) return value.flatMap((v, i) => timestamps(v, `${path}[${i}]`));
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) =>
    k.endsWith('_at') && v !== null ? [[`${path}.${k}`, v] as [string, unknown]] : timestamps(v, `${path}.${k}`),
  );
}

/** Operations whose response body the document does not show (a JSON body is not promised). */
const SHAPE_NOT_SHOWN = new Set(['trashNote']);

check(
  'every operation answers a success with 200, a JSON body, a request_id and offset timestamps',
  {
    rules: [
      'conventions.request-id.on-every-success',
      'conventions.success.status-200',
      'conventions.json.bodies',
      'conventions.json.content-type',
      'conventions.request-id.unique',
      'conventions.timestamps.response-format',
    ],
  },
  async (t) => {
    const word = t.data.word();
    const seen: Array<[string, Exchange]> = [];
    const step = async <Op extends string>(op: string, x: Promise<Exchange<Op>>) => {
      const exchange = await x;
      seen.push([op, exchange]);
      return exchange;
    };
    const c1 = setupOk(
      await step('createCollection', t.api.createCollection({ title: `Conventions ${word}` })),
      'create a collection',
    );
    const c2 = setupOk(
      await step('createCollection', t.api.createCollection({ title: `Conventions target ${word}` })),
      'create a collection',
    );
    const note = setupOk(
      await step(
        'createNote',
        t.api.createNote({ content: t.data.content(`Conventions ${word}`, 'body'), collection_ids: [c1.id] }),
      ),
      'create a note',
    );
    await step('getNote', t.api.getNote(note.id));
    const updated = setupOk(
      await step(
        'updateNote',
        t.api.updateNote(note.id, { content: t.data.content(`Conventions ${word}`, 'edited'), version: note.version }),
      ),
      'update the note',
    );
    await step(
      'setNoteCreatedAt',
      t.api.setCreatedAt(note.id, { created_at: new Date(Date.parse(note.created_at) - 86_400_000).toISOString() }),
    );
    await step('listNotes', t.api.listNotes({ limit: 1 }));
    await step('searchNotes', t.api.searchNotes({ limit: 1 }, { query: word }));
    await step('getRelatedNotes', t.api.relatedNotes(note.id, { limit: 1 }));
    await step('getCollection', t.api.getCollection(c1.id));
    await step('updateCollection', t.api.updateCollection(c1.id, { description: 'described' }));
    await step('listCollections', t.api.listCollections({ limit: 1 }));
    await step('addNoteToCollection', t.api.addToCollection(c2.id, note.id));
    await step('moveNote', t.api.moveNote(c2.id, note.id, { target_collection_id: c1.id }));
    await step('searchCollections', t.api.searchCollections({}));
    // Trash's response shape is not shown, but "all responses are 200 on success" and every
    // successful JSON response carries request_id hold for it too.
    await step('trashNote', t.api.trashNote(note.id));
    await step('deleteNote', t.api.deleteNote(note.id));
    await step('deleteCollection', t.api.deleteCollection(c2.id));
    void updated;

    await t.verify('conventions.success.status-200', () => {
      for (const [op, x] of seen) expect(x.status, `${op} succeeds with 200 (not 201 or 204): ${show(x)}`).toBe(200);
    });
    const shown = seen.filter(([op]) => !SHAPE_NOT_SHOWN.has(op));
    await t.verify('conventions.json.bodies', () => {
      for (const [op, x] of shown) expect(x.json, `${op} answers a JSON object: ${show(x)}`).toBeTypeOf('object');
    });
    await t.verify('conventions.json.content-type', () => {
      for (const [op, x] of shown)
        expect(x.headers['content-type'] ?? '', `${op} declares a JSON content type`).toMatch(/json/i);
    });
    await t.verify('conventions.request-id.on-every-success', () => {
      for (const [op, x] of seen) {
        if (x.status !== 200 || (SHAPE_NOT_SHOWN.has(op) && x.json === undefined)) continue;
        expect(
          typeof (x.json as { request_id?: unknown } | undefined)?.request_id,
          `${op} carries a string request_id: ${show(x)}`,
        ).toBe('string');
      }
    });
    await t.verify('conventions.request-id.unique', () => {
      const idsSeen = seen
        .map(([, x]) => (x.json as { request_id?: unknown } | undefined)?.request_id)
        .filter((v) => typeof v === 'string');
      expect(new Set(idsSeen).size, 'every request gets its own request_id').toBe(idsSeen.length);
    });
    await t.verify('conventions.timestamps.response-format', () => {
      for (const [op, x] of seen) {
        for (const [path, value] of timestamps(x.json)) {
          const read = readDateTime(value);
          expect(
            read?.realDate,
            `${op} ${path} ${JSON.stringify(value)} is an ISO 8601 date-time with a timezone designator`,
          ).toBe(true);
        }
      }
    });
  },
);
