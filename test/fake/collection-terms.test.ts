import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CollectionTermIndex } from '../../fake/store/collection-terms.js';
import type { CollectionRecord } from '../../fake/store/records.js';
import { TermTable } from '../../fake/store/term-table.js';
import { termCounts } from '../../fake/store/terms.js';

/** Collection search scoring as it was before the index: each text scanned against the query's counts. */
function scoreByScan(c: CollectionRecord, query: string, titleWeight: number, descriptionWeight: number): number {
  const counts = termCounts(query);
  let score = 0;
  for (const [term, n] of termCounts(c.title)) score += n * titleWeight * (counts.get(term) ?? 0);
  for (const [term, n] of termCounts(c.description ?? '')) score += n * descriptionWeight * (counts.get(term) ?? 0);
  return score;
}

describe('collection terms read at write time', () => {
  it('scores visible collections as a scan of their texts does, after texts change on the record and collections go', () => {
    const words = ['plan', 'Plan', 'garden', 'trip', 'İnbox', 'σοφία', 'ΟΔΟΣ', 'x'.repeat(70), 'budget'];
    const text = fc.array(fc.constantFrom(...words), { maxLength: 8 }).map((w) => w.join(' '));
    const op = fc.oneof(
      fc.record({
        kind: fc.constant('create' as const),
        owner: fc.constantFrom('a', 'b'),
        title: text,
        description: fc.option(text),
      }),
      fc.record({ kind: fc.constant('title' as const), pick: fc.nat(), title: text }),
      fc.record({ kind: fc.constant('description' as const), pick: fc.nat(), description: fc.option(text) }),
      fc.record({ kind: fc.constant('delete' as const), pick: fc.nat() }),
      fc.record({
        kind: fc.constant('search' as const),
        query: text,
        seen: fc.array(fc.boolean(), { maxLength: 30 }),
      }),
    );
    fc.assert(
      fc.property(
        fc.array(op, { minLength: 20, maxLength: 120 }),
        fc.constantFrom([3, 1], [0, 1], [2, 5]),
        (ops, [tw, dw]) => {
          const index = new CollectionTermIndex();
          const live: CollectionRecord[] = [];
          let next = 0;
          for (const o of ops) {
            const target = 'pick' in o && live.length > 0 ? live[o.pick % live.length]! : undefined;
            if (o.kind === 'create') {
              const c = {
                id: `c${next++}`,
                ownerId: o.owner,
                title: o.title,
                description: o.description,
              } as CollectionRecord;
              live.push(c);
            } else if (o.kind === 'title' && target) target.title = o.title;
            else if (o.kind === 'description' && target) target.description = o.description;
            else if (o.kind === 'delete' && target) {
              live.splice(live.indexOf(target), 1);
              index.forget(target.id);
            } else if (o.kind === 'search') {
              const visible = live.filter((_, i) => o.seen[i] ?? true);
              index.refresh(visible);
              const got = index.score(visible, new TermTable(o.query), tw, dw).map(({ c, score }) => [c.id, score]);
              const want = visible
                .map((c) => [c.id, scoreByScan(c, o.query, tw, dw)] as const)
                .filter(([, score]) => score > 0);
              expect(got).toEqual(want);
            }
          }
        },
      ),
      { numRuns: 300, seed: 31 },
    );
  });
});
