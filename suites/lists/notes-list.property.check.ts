import fc from 'fast-check';
import { type CheckContext, checks, RuleViolation, show } from '../harness/index.js';
import { allPages, direction, idsOf, items, nextPage } from './list-helpers.js';

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

const RULES = [
  'notes.list.cursor-pages',
  'notes.list.total-before-pagination',
  'notes.list.order-by-honoured',
  'notes.list.next-page-omitted-at-end',
] as const;

/** Creates the data set in a fresh window, pages through it and says which rules the pages break. */
async function pageThrough(t: CheckContext, set: DataSet): Promise<Map<string, string>> {
  const w = t.data.window();
  const mine: string[] = [];
  for (const n of set.notes) {
    const extra = {
      created_at: w.at(n.created),
      ...(n.updatedLater === undefined ? {} : { updated_at: w.at(n.created + n.updatedLater) }),
    };
    mine.push((await t.data.note(undefined, extra)).id);
  }
  const query = { created_after: w.at(-1), created_before: w.at(20_000), order_by: set.orderBy, limit: set.limit };
  const { pages, ended } = await allPages(t, query, Math.ceil(mine.length / set.limit) + 1);
  const broken = new Map<string, string>();
  const seen = pages.flatMap(idsOf);
  const missing = mine.filter((id) => !seen.includes(id));
  const stray = seen.filter((id) => !mine.includes(id));
  if (!ended)
    broken.set(
      'notes.list.cursor-pages',
      `paging does not end after ${pages.length} pages of ${set.limit} for ${mine.length} notes`,
    );
  else if (new Set(seen).size !== seen.length || missing.length > 0 || stray.length > 0) {
    broken.set(
      'notes.list.cursor-pages',
      `pages hold ${seen.length} results for ${mine.length} notes (duplicates ${seen.length - new Set(seen).size}, missing ${missing.length}, stray ${stray.length})`,
    );
  }
  const totals = pages.map((x) => (x.json as { total?: unknown }).total);
  if (totals.some((total) => total !== mine.length))
    broken.set(
      'notes.list.total-before-pagination',
      `totals ${JSON.stringify(totals)} for ${mine.length} matching notes`,
    );
  const values = pages.flatMap(items).map((i) => Date.parse(String(i[set.orderBy])));
  if (direction(values) === 'mixed') {
    broken.set(
      'notes.list.order-by-honoured',
      `${set.orderBy} across the pages goes both ways: ${pages
        .flatMap(items)
        .map((i) => String(i[set.orderBy]))
        .join(', ')}`,
    );
  }
  const early = pages.slice(0, -1).find((x) => nextPage(x) === undefined);
  const last = pages[pages.length - 1]!;
  if (early)
    broken.set('notes.list.next-page-omitted-at-end', `a page before the last has no next_page: ${show(early)}`);
  else if (ended && 'next_page' in (last.json as object))
    broken.set('notes.list.next-page-omitted-at-end', `the last page carries next_page: ${show(last)}`);
  return broken;
}

check(
  'random data sets in a fresh window page out exactly once each, in order, with the total on every page (property)',
  {
    rules: [...RULES],
    needs: ['profile:names.notes_list.cursor'],
  },
  async (t) => {
    // A data set that breaks rules fails only those (t.property adds the seed, path and counterexample).
    await t.property(dataSets, async (set) => {
      const broken = await pageThrough(t, set);
      if (broken.size > 0) throw new RuleViolation(broken);
    });
  },
);
