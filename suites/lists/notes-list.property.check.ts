import fc from 'fast-check';
import { type CheckContext, checks } from '../harness/index.js';
import { nextPage } from './list-helpers.js';

const { check } = checks();

type OrderBy = 'created_at' | 'updated_at';

interface DataSet {
  /** Per note: created_at and (when set) how much later updated_at is, in ms into a fresh window; ties are likely on purpose. */
  notes: Array<{ created: number; updatedLater: number | undefined }>;
  limit: number;
  orderBy: OrderBy;
}

const dataSets: fc.Arbitrary<DataSet> = fc.record({
  notes: fc.array(
    fc.record({
      created: fc.integer({ min: 0, max: 6 }).map((s) => s * 1000),
      updatedLater: fc.option(
        fc.integer({ min: 0, max: 6 }).map((s) => s * 1000),
        { nil: undefined },
      ),
    }),
    { minLength: 1, maxLength: 4 },
  ),
  limit: fc.integer({ min: 1, max: 3 }),
  orderBy: fc.constantFrom<OrderBy>('created_at', 'updated_at'),
});

/** Creates the data set in a fresh window and pages through it: the oracle judges each page and the walk. */
async function pageThrough(t: CheckContext, set: DataSet): Promise<void> {
  const w = t.data.window();
  for (const n of set.notes) {
    const extra = {
      created_at: w.at(n.created),
      ...(n.updatedLater === undefined ? {} : { updated_at: w.at(n.created + n.updatedLater) }),
    };
    await t.data.note(undefined, extra);
  }
  const query = { created_after: w.at(-1), created_before: w.at(20_000), order_by: set.orderBy, limit: set.limit };
  let x = await t.api.listNotes(query);
  for (let n = 1; n <= Math.ceil(set.notes.length / set.limit) && x.status === 200 && nextPage(x); n++)
    x = await t.api.listNotes({ ...query, cursor: nextPage(x) });
}

check(
  'random data sets in a fresh window page out exactly once each, in order, with the total on every page (property)',
  {
    oracle: [
      'notes.list.cursor-pages',
      'notes.list.total-before-pagination',
      'notes.list.order-by-honoured',
      'notes.list.next-page-omitted-at-end',
    ],
    needs: ['profile:names.notes_list.cursor'],
  },
  async (t) => {
    // First, four notes on two pages, updated in an order that is neither their creation order nor
    // its reverse (the direction may be the profile's: an order shows only in three items or more),
    // so that a budget of no random run (a remote target's) still judges every rule the check names.
    const twoPages: DataSet = {
      notes: [
        { created: 0, updatedLater: 6000 },
        { created: 1000, updatedLater: 3000 },
        { created: 2000, updatedLater: 5000 },
        { created: 3000, updatedLater: 2000 },
      ],
      limit: 3,
      orderBy: 'created_at',
    };
    await t.property(dataSets, (set) => pageThrough(t, set), undefined, [twoPages]);
  },
);
