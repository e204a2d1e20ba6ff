import fc from 'fast-check';
import type { NoteRef } from '../harness/data.js';
import { type CheckContext, checks, type Exchange, KitError, RuleViolation, setupOk, show } from '../harness/index.js';
import { field, idsOf, items, moreReachable, refused, searchFinding } from './search-helpers.js';

const { check } = checks();

type Change = 'create' | 'edit' | 'both';

interface Scenario {
  /** Notes holding the run's word, each with a little more filler so they rank apart. */
  count: number;
  limit: number;
  /** What happens between the first page and the later ones. */
  change: Change;
  /** Which note is edited (modulo count). */
  edited: number;
}

const scenarios: fc.Arbitrary<Scenario> = fc.record({
  count: fc.integer({ min: 2, max: 4 }),
  limit: fc.integer({ min: 1, max: 3 }),
  change: fc.constantFrom<Change>('create', 'edit', 'both'),
  edited: fc.nat({ max: 3 }),
});

const RULES = [
  'notes.search.snapshot-pages',
  'notes.search.snapshot-frozen',
  'notes.search.has-next-page',
  'notes.search.snapshot-required',
] as const;

/**
 * Reads the snapshot's window as its first page, changes the data, then pages through the same
 * snapshot; returns what each rule says. Rankings are the target's own: only the snapshot is compared with itself.
 */
async function pageSnapshot(t: CheckContext, s: Scenario): Promise<Map<string, string>> {
  const word = t.data.word();
  const notes: NoteRef[] = [];
  for (let i = 0; i < s.count; i++)
    notes.push(await t.data.note(t.data.content(`Paged ${i} ${word}`, `${word} ${'more '.repeat(i)}`)));
  // The window is read once the index holds every note (bounded by search_index_lag_ms).
  const first = await searchFinding(
    t,
    word,
    notes.map((n) => n.id),
  );
  const head = setupOk(first, "search the run's word");
  const window = idsOf(first);
  const total = head.total as number;
  const snapshot = head.snapshot_id;
  if (typeof snapshot !== 'string' || typeof total !== 'number')
    throw new KitError(`the first page has no snapshot_id or total (see notes.search.response-fields): ${show(first)}`);
  const broken = new Map<string, string>();
  const hasNext = (x: Exchange) => {
    const want = moreReachable(x);
    if (field(x, 'has_next_page') !== want)
      broken.set('notes.search.has-next-page', `has_next_page should be ${want}: ${show(x)}`);
  };
  hasNext(first);
  if (total > 100) broken.set('notes.search.snapshot-pages', `total ${total} is beyond the 100-result window`);

  const unanchored = await t.api.searchNotes({ limit: s.limit, offset: s.limit }, { query: word });
  if (!refused(unanchored))
    broken.set(
      'notes.search.snapshot-required',
      `offset ${s.limit} without snapshot_id should be refused: ${show(unanchored)}`,
    );

  let added: string | undefined;
  const edited = notes[s.edited % s.count]!;
  if (s.change !== 'edit') added = (await t.data.note(t.data.content(`${word} ${word}`, `${word} ${word} ${word}`))).id;
  if (s.change !== 'create')
    setupOk(
      await t.api.updateNote(edited.id, {
        content: t.data.content(`Edited ${t.data.word()}`),
        version: edited.version,
      }),
      'edit a note of the window',
    );

  const pages: Exchange[] = [];
  const most = Math.ceil(Math.min(total, 100) / s.limit) + 1;
  for (let offset = 0; pages.length < most; offset += s.limit) {
    const x = await t.api.searchNotes({ limit: s.limit, offset, snapshot_id: snapshot }, { query: word });
    setupOk(x, `search offset ${offset} of the snapshot`);
    pages.push(x);
    hasNext(x);
    if (field(x, 'has_next_page') !== true || items(x).length === 0) break;
  }
  const seen = pages.flatMap(idsOf);
  if (new Set(seen).size !== seen.length)
    broken.set('notes.search.snapshot-pages', `a note appears twice across the pages: ${seen.join(', ')}`);
  else if (seen.length > total)
    broken.set('notes.search.snapshot-pages', `${seen.length} results reachable with total ${total}`);
  else if (
    seen.slice(0, window.length).join() !== window.slice(0, seen.length).join() ||
    (total <= 50 && seen.length !== window.length)
  ) {
    broken.set(
      'notes.search.snapshot-pages',
      `pages of ${s.limit} give ${seen.join(', ')} for the window ${window.join(', ')}`,
    );
  }
  const totals = pages.map((x) => field(x, 'total'));
  if (totals.some((v) => v !== total))
    broken.set(
      'notes.search.snapshot-frozen',
      `later pages report totals ${JSON.stringify(totals)}, the first ${total}`,
    );
  else if (added !== undefined && seen.includes(added))
    broken.set('notes.search.snapshot-frozen', 'a note created after the first page is in later pages of the snapshot');
  else if (s.change !== 'create' && !seen.includes(edited.id))
    broken.set('notes.search.snapshot-frozen', 'a note edited after the first page left the snapshot');
  return broken;
}

check(
  'pages of one snapshot concatenate to its window, unchanged by later writes (property)',
  {
    smoke: true,
    rules: [...RULES],
  },
  async (t) => {
    // A data set that breaks rules fails only those (t.property adds the seed, path and counterexample).
    // The example always runs, also where the budget allows no random run (remote targets): a note created
    // and one edited between the first page and the later ones, pages of one, the last of them full.
    await t.property(
      scenarios,
      async (s) => {
        const broken = await pageSnapshot(t, s);
        if (broken.size > 0) throw new RuleViolation(broken);
      },
      undefined,
      [{ count: 2, limit: 1, change: 'both', edited: 1 } satisfies Scenario],
    );
  },
);
