import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SearchIndex, termFrequencies, tokenize } from '../../fake/store/search-index.js';
import { MergedWalk, SortedIndex } from '../../fake/store/sorted-index.js';

describe('sorted index (deferred out-of-order inserts)', () => {
  it('answers as a sorted list would, under random inserts, removes and moves', () => {
    const op = fc.oneof(
      fc.record({
        kind: fc.constant('insert' as const),
        key: fc.integer({ min: 0, max: 50 }),
        id: fc.integer({ min: 0, max: 400 }),
      }),
      fc.record({
        kind: fc.constantFrom('remove' as const, 'move' as const, 'read' as const),
        pick: fc.nat(),
        key: fc.integer({ min: 0, max: 50 }),
      }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 300 }), (ops) => {
        const index = new SortedIndex();
        let model: Array<[number, string]> = [];
        const sort = () => model.sort((a, b) => a[0] - b[0] || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
        for (const o of ops) {
          if (o.kind === 'insert') {
            const id = `id${o.id}`;
            if (model.some(([, m]) => m === id)) continue;
            index.insert(o.key, id);
            model.push([o.key, id]);
          } else if (model.length > 0 && o.kind !== 'read') {
            const [key, id] = model[o.pick % model.length]!;
            if (o.kind === 'remove') {
              index.remove(key, id);
              model = model.filter(([, m]) => m !== id);
            } else {
              index.move(key, o.key, id);
              model.find(([, m]) => m === id)![0] = o.key;
            }
          } else {
            const seen: string[] = [];
            index.forEach(false, undefined, (id) => void seen.push(id));
            expect(seen).toEqual(sort().map(([, id]) => id));
          }
          expect(index.size).toBe(model.length);
        }
        const down: string[] = [];
        index.forEach(true, undefined, (id) => void down.push(id));
        expect(down).toEqual(
          sort()
            .map(([, id]) => id)
            .reverse(),
        );
      }),
      { numRuns: 300, seed: 13 },
    );
  });

  it('places keys that rise or stand still among their equals, short runs in place and long ones later', () => {
    // A clock that rises by 0 or 1 between creates, and random ids: runs of equal keys from 1 to 150 long.
    const step = fc.record({ rise: fc.integer({ min: 0, max: 1 }), id: fc.integer({ min: 0, max: 10_000 }) });
    fc.assert(
      fc.property(fc.array(step, { maxLength: 200 }), fc.integer({ min: 0, max: 150 }), (steps, still) => {
        const index = new SortedIndex();
        const model: Array<[number, string]> = [];
        let key = 0;
        const add = (id: string) => {
          if (model.some(([, m]) => m === id)) return;
          index.insert(key, id);
          model.push([key, id]);
        };
        for (const { rise, id } of steps) {
          key += rise;
          add(`id${id}`);
        }
        for (let i = 0; i < still; i++) add(`still${(i * 7919) % 151}`);
        const seen: string[] = [];
        index.forEach(false, undefined, (id) => void seen.push(id));
        const sorted = model.sort((a, b) => a[0] - b[0] || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
        expect(seen).toEqual(sorted.map(([, id]) => id));
      }),
      { numRuns: 300, seed: 17 },
    );
  });
});

describe('merged walk (own notes and shared ones, as one index)', () => {
  it('walks an index and extra entries as one index holding both would, from any cursor, either way', () => {
    const entry = fc.record({ key: fc.integer({ min: 0, max: 20 }), id: fc.integer({ min: 0, max: 300 }) });
    fc.assert(
      fc.property(
        fc.uniqueArray(entry, { selector: (e) => e.id, maxLength: 60 }),
        fc.array(fc.boolean(), { minLength: 60, maxLength: 60 }),
        fc.option(entry),
        fc.boolean(),
        fc.integer({ min: 1, max: 70 }),
        (entries, inExtra, cursor, descending, stopAfter) => {
          const index = new SortedIndex();
          const whole = new SortedIndex();
          const extra: Array<{ key: number; item: string }> = [];
          entries.forEach((e, i) => {
            const id = `n${e.id}`;
            whole.insert(e.key, id);
            if (inExtra[i]) extra.push({ key: e.key, item: id });
            else index.insert(e.key, id);
          });
          const after = cursor === null ? undefined : { key: cursor.key, id: `n${cursor.id}` };
          const walk = (w: { forEach: SortedIndex['forEach'] }) => {
            const seen: string[] = [];
            w.forEach(descending, after, (id) => {
              seen.push(id);
              return seen.length < stopAfter;
            });
            return seen;
          };
          expect(walk(new MergedWalk(index, extra, (id) => id))).toEqual(walk(whole));
        },
      ),
    );
  });
});

describe('search index (flat postings, packed when long, re-tokenized on removal)', () => {
  it('counts the terms of a long text as of a short one: title terms weigh three, in first-occurrence order', () => {
    const word = fc.constantFrom('Plan', 'plan', 'İx', 'ΟΔΟΣ', 'garden', '𐐀b', 'x'.repeat(65), '42', 'ẞ');
    const text = fc.array(word, { minLength: 0, maxLength: 1_500, size: 'max' }).map((w) => w.join(' '));
    fc.assert(
      fc.property(text, text, (title, body) => {
        const plain = new Map<string, number>();
        for (const t of tokenize(title)) plain.set(t, (plain.get(t) ?? 0) + 3);
        for (const t of tokenize(body)) plain.set(t, (plain.get(t) ?? 0) + 1);
        expect([...termFrequencies(title, body)]).toEqual([...plain]);
      }),
      { numRuns: 60, seed: 37 },
    );
  });

  it('finds exactly the documents holding a term after random adds, edits and removals', () => {
    const vocabulary = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta'];
    const text = fc.array(fc.constantFrom(...vocabulary), { maxLength: 6 }).map((w) => w.join(' '));
    const op = fc.record({ doc: fc.integer({ min: 0, max: 80 }), text: fc.option(text, { nil: undefined }) });
    fc.assert(
      fc.property(fc.array(op, { maxLength: 400 }), (ops) => {
        const docs = new Map<number, string>();
        const index = new SearchIndex((seq) =>
          docs.has(seq) ? { owner: 'u', title: '', body: docs.get(seq)! } : undefined,
        );
        for (const { doc, text: body } of ops) {
          if (docs.has(doc)) {
            index.remove(doc);
            docs.delete(doc);
          }
          if (body !== undefined) {
            docs.set(doc, body);
            index.add(doc);
          }
        }
        expect(index.documentCount).toBe(docs.size);
        for (const term of vocabulary) {
          const hits = index
            .search(
              index.view('u'),
              [term],
              1_000,
              () => true,
              (a, b) => a - b,
            )
            .map((h) => h.seq)
            .sort((a, b) => a - b);
          const expected = [...docs]
            .filter(([, body]) => tokenize(body).includes(term))
            .map(([seq]) => seq)
            .sort((a, b) => a - b);
          expect(hits, term).toEqual(expected);
        }
      }),
      { numRuns: 200, seed: 13 },
    );
  });

  it('scores as BM25 written out per document, the same doubles, with or without most of the vocabulary queried', () => {
    // A query of most of an owner's vocabulary takes the dense walk (every own document entered
    // first, four postings a step); a few terms take the ordinary one. Both must give each
    // document the sum of its shares in query order, as written out here.
    const vocabulary = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta'];
    const words = fc.array(fc.constantFrom(...vocabulary), { maxLength: 9 }).map((w) => w.join(' '));
    const doc = fc.record({ owner: fc.constantFrom('u', 'u', 'v', 'w'), title: words, body: words });
    const query = fc.oneof(
      fc.shuffledSubarray(vocabulary, { minLength: 6 }),
      fc.array(fc.constantFrom(...vocabulary, 'unknown'), { minLength: 1, maxLength: 3 }),
    );
    const K1 = 1.2;
    const B = 0.75;
    fc.assert(
      fc.property(
        fc.array(doc, { minLength: 1, maxLength: 120, size: 'max' }),
        query,
        fc.array(fc.nat(119), { maxLength: 10, size: 'max' }),
        fc.integer({ min: 1, max: 30 }),
        (docs, terms, sharedPicks, k) => {
          const index = new SearchIndex((seq) => docs[seq]);
          for (let seq = 0; seq < docs.length; seq++) index.add(seq);
          const shared = sharedPicks.filter((seq) => seq < docs.length && docs[seq]!.owner !== 'u');
          const inView = docs.map((d, seq) => d.owner === 'u' || shared.includes(seq));
          const tfs = docs.map((d) => termFrequencies(d.title, d.body));
          const lengths = tfs.map((tf) => [...tf.values()].reduce((a, b) => a + b, 0));
          const seqs = docs.map((_, seq) => seq).filter((seq) => inView[seq]);
          const n = seqs.length;
          const avg = seqs.reduce((sum, seq) => sum + lengths[seq]!, 0) / Math.max(1, n);
          const df = (t: string) => seqs.filter((seq) => tfs[seq]!.has(t)).length;
          const unique = [...new Set(terms)].filter((t) => df(t) > 0);
          const expected = seqs
            .map((seq) => {
              const factor = K1 * (1 - B + (B * lengths[seq]!) / avg);
              let score = 0;
              for (const t of unique) {
                const tf = tfs[seq]!.get(t);
                const idf = Math.log(1 + (n - df(t) + 0.5) / (df(t) + 0.5));
                if (tf !== undefined) score += idf * ((tf * (K1 + 1)) / (tf + factor));
              }
              return { seq, score };
            })
            .filter((h) => h.score > 0)
            .sort((a, b) => b.score - a.score || a.seq - b.seq)
            .slice(0, k);
          const hits = index.search(
            index.view('u', shared),
            terms,
            k,
            () => true,
            (a, b) => a - b,
          );
          expect(hits).toEqual(expected);
        },
      ),
      { numRuns: 300, seed: 29 },
    );
  });

  it('keeps scores of documents whose lists were packed, and forgets removed ones', () => {
    const docs = new Map<number, string>();
    const index = new SearchIndex((seq) =>
      docs.has(seq) ? { owner: 'u', title: `doc ${seq}`, body: docs.get(seq)! } : undefined,
    );
    for (let seq = 0; seq < 500; seq++) {
      docs.set(seq, seq % 7 === 0 ? 'common rare' : 'common');
      index.add(seq);
    }
    const rare = index.search(
      index.view('u'),
      ['rare'],
      1_000,
      () => true,
      (a, b) => a - b,
    );
    expect(rare.map((h) => h.seq)).toEqual(
      Array.from({ length: 72 }, (_, i) => i * 7)
        .sort((a, b) => a - b)
        .filter((s) => s < 500),
    );
    for (let seq = 0; seq < 500; seq += 2) {
      index.remove(seq);
      docs.delete(seq);
    }
    expect(
      index.search(
        index.view('u'),
        ['common'],
        1_000,
        () => true,
        (a, b) => a - b,
      ),
    ).toHaveLength(250);
    expect(
      index
        .search(
          index.view('u'),
          ['rare'],
          1_000,
          () => true,
          (a, b) => a - b,
        )
        .every((h) => h.seq % 2 === 1),
    ).toBe(true);
    expect(index.vector(1).get('common')).toBeGreaterThan(0);
    expect(index.vector(0).size).toBe(0);
  });
});
