import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createCollection } from '../../fake/service/collections.js';
import { grant } from '../../fake/service/fixtures.js';
import { relatedNotes } from '../../fake/service/notes-related.js';
import { searchNotes } from '../../fake/service/notes-search.js';
import { createNote, updateNote } from '../../fake/service/notes-write.js';
import { relevanceView } from '../../fake/service/relevance-view.js';
import type { View } from '../../fake/service/views.js';
import { SearchIndex } from '../../fake/store/search-index.js';
import { TermTable } from '../../fake/store/term-table.js';
import { hashUnits, termCounts, tokenize } from '../../fake/store/terms.js';
import { harness } from './helpers.js';

const ids = (view: View) => (view.results as View[]).map((r) => r.id);
const scores = (view: View) => (view.results as View[]).map((r) => [r.title, r.score]);

describe('terms', () => {
  it('are the lower-cased letter and digit runs of /[\\p{L}\\p{N}]+/gu, at most 64 units long', () => {
    const unit = fc.constantFrom(
      'a',
      'Z',
      '7',
      ' ',
      '-',
      'é',
      'İ',
      'ß',
      'Σ',
      '٣',
      '\u0301',
      '𝒳',
      '😀',
      '\ud800',
      '中',
      '\n',
    );
    const text = fc.oneof(
      fc.array(unit, { maxLength: 80 }).map((u) => u.join('')),
      fc.string({ unit: 'binary', maxLength: 80 }),
      fc.integer({ min: 60, max: 70 }).map((n) => `x ${'a'.repeat(n)} y`),
    );
    fc.assert(
      fc.property(text, (t) => {
        const expected = [...t.toLowerCase().matchAll(/[\p{L}\p{N}]+/gu)]
          .map((m) => m[0])
          .filter((w) => w.length <= 64);
        expect(tokenize(t)).toEqual(expected);
      }),
      { numRuns: 300, seed: 5 },
    );
  });

  it('lower-case as toLowerCase does: "İ" gives "i" and a dot that ends the term, "Σ" is final at a word end', () => {
    expect(tokenize('İstanbul İİ')).toEqual(['i', 'stanbul', 'i', 'i']);
    // "." is case-ignorable: the cased "Β" after it makes the sigma before it not final.
    expect(tokenize('ΟΔΟΣ ΣΑΣ Σ ΑΣ.Β')).toEqual(['οδο\u03c2', '\u03c3α\u03c2', '\u03c3', 'α\u03c3', 'β']);
    expect(tokenize('Straße STRAẞE ǅ 𐐀x 😀 ٣٤')).toEqual(['straße', 'straße', 'ǆ', '𐐨x', '٣٤']);
  });

  it('are counted by the query table (spans, no strings) as by a map of strings', () => {
    const unit = fc.constantFrom(
      'ab',
      'AB',
      'b',
      '7',
      ' ',
      'İ',
      'ẞ',
      'ΑΣ',
      'Σ.',
      '𝒳',
      '\ud800',
      '-',
      'ab ab',
      'x'.repeat(40),
    );
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 60 }), fc.array(unit, { maxLength: 20 }), (parts, others) => {
        const text = parts.join('');
        const table = new TermTable(text);
        const counts = termCounts(text);
        expect(table.terms()).toEqual([...counts.keys()]);
        expect(table.occurrences).toBe(tokenize(text).length);
        for (const term of tokenize(others.join(''))) expect(table.countOf(term)).toBe(counts.get(term) ?? 0);
      }),
      { numRuns: 500, seed: 9 },
    );
  });

  it('are kept by the query table only when worth keeping, and still counted as occurrences', () => {
    const text = 'Alpha beta ALPHA gamma beta beta delta İstanbul ΟΔΟΣ';
    const refused = new Set([hashUnits('beta'), hashUnits('gamma')]);
    const table = new TermTable(text, (hash) => !refused.has(hash));
    expect(table.terms()).toEqual(['alpha', 'delta', 'i', 'stanbul', 'οδο\u03c2']);
    expect(table.occurrences).toBe(tokenize(text).length);
    expect([table.countOf('alpha'), table.countOf('beta'), table.countOf('delta')]).toEqual([2, 0, 1]);
  });

  it('drop runs longer than 64 units whole, counted in first-occurrence order', () => {
    const kept = 'a'.repeat(64);
    expect(tokenize(`x ${'a'.repeat(65)} ${kept} ${'İ'.repeat(40)}y`)).toEqual([
      'x',
      kept,
      ...Array(40).fill('i'),
      'y',
    ]);
    expect([...termCounts('b A a B c a')]).toEqual([
      ['b', 2],
      ['a', 3],
      ['c', 1],
    ]);
  });
});

/**
 * The related-notes rule written out plainly (what the fake computed by re-reading every note
 * before the index scored from postings): TF-IDF vectors ((1 + ln tf) x idf over the corpus,
 * title terms weighing 3), unit length; candidates share one of the subject's 32 strongest terms;
 * cosine rounded to 6 decimals, positive only, best first, ties by id.
 */
function relatedByRule(corpus: Map<number, string>, subject: number, limit: number): Array<[number, number]> {
  const tf = (seq: number) => {
    const terms = new Map<string, number>();
    for (const t of tokenize(corpus.get(seq)!)) terms.set(t, (terms.get(t) ?? 0) + 1);
    return terms;
  };
  const df = new Map<string, number>();
  for (const seq of corpus.keys()) for (const t of tf(seq).keys()) df.set(t, (df.get(t) ?? 0) + 1);
  const idf = (t: string) => Math.log(1 + (corpus.size - df.get(t)! + 0.5) / (df.get(t)! + 0.5));
  const vector = (seq: number) => {
    const v = new Map<string, number>();
    for (const [t, f] of tf(seq)) v.set(t, (1 + Math.log(f)) * idf(t));
    const norm = Math.sqrt([...v.values()].reduce((s, w) => s + w * w, 0)) || 1;
    for (const [t, w] of v) v.set(t, w / norm);
    return v;
  };
  const q = vector(subject);
  const strongest = [...q]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, 32)
    .map(([t]) => t);
  const out: Array<[number, number]> = [];
  for (const seq of corpus.keys()) {
    if (seq === subject || !strongest.some((t) => tf(seq).has(t))) continue;
    let score = 0;
    for (const [t, w] of vector(seq)) score += w * (q.get(t) ?? 0);
    score = Math.round(score * 1e6) / 1e6;
    if (score > 0) out.push([seq, score]);
  }
  return out.sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, limit);
}

describe('related notes from the index', () => {
  // Documents 0, 3, 6, ... belong to another owner; of those, the even ones are shared with the caller.
  const ownerOf = (doc: number) => (doc % 3 === 0 ? 'other' : 'caller');
  const visible = (doc: number) => ownerOf(doc) === 'caller' || doc % 2 === 0;

  it.each([
    ['own notes only', false],
    ['own notes and notes shared by another owner', true],
  ])('rank exactly as the rule says, after random adds, edits and removals (%s)', (_, withShared) => {
    const words = Array.from({ length: 60 }, (_, i) => `w${i}`);
    const text = fc.array(fc.constantFrom(...words), { minLength: 1, maxLength: 45 }).map((w) => w.join(' '));
    const op = fc.record({ doc: fc.integer({ min: 0, max: 50 }), text: fc.option(text, { nil: undefined }) });
    fc.assert(
      fc.property(fc.array(op, { minLength: 1, maxLength: 150 }), fc.integer({ min: 1, max: 20 }), (ops, limit) => {
        const docs = new Map<number, string>();
        const owner = (doc: number) => (withShared ? ownerOf(doc) : 'caller');
        const index = new SearchIndex((seq) =>
          docs.has(seq) ? { owner: owner(seq), title: '', body: docs.get(seq)! } : undefined,
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
          // Ask between writes too: cached norms must follow every change.
          const seen = new Map([...docs].filter(([seq]) => !withShared || visible(seq)));
          const subject = [...seen.keys()].find((seq) => owner(seq) === 'caller');
          if (subject === undefined) continue;
          const shared = [...seen.keys()].filter((seq) => owner(seq) !== 'caller');
          const got = index.related(
            index.view('caller', shared),
            subject,
            limit,
            () => true,
            (a, b) => a - b,
          );
          expect(got.map((h) => [h.seq, h.score])).toEqual(relatedByRule(seen, subject, limit));
        }
      }),
      { numRuns: 80, seed: 11 },
    );
  });
});

describe('search from the index', () => {
  // Documents of another owner sit among the caller's: they count in no statistic of the caller's.
  it('scores exactly as BM25 says, after random adds, edits and removals', () => {
    const words = Array.from({ length: 30 }, (_, i) => `w${i}`);
    const text = fc
      .array(fc.constantFrom(...words), { minLength: 1, maxLength: 30, size: 'max' })
      .map((w) => w.join(' '));
    const op = fc.record({
      doc: fc.integer({ min: 0, max: 20 }),
      text: fc.option(text, { nil: undefined }),
      other: fc.constantFrom(false, false, false, true),
    });
    const query = fc.array(fc.constantFrom(...words, 'unknown'), { minLength: 1, maxLength: 40, size: 'max' });
    fc.assert(
      fc.property(
        fc.array(op, { minLength: 1, maxLength: 60, size: 'max' }),
        query,
        fc.integer({ min: 1, max: 30 }),
        (ops, q, k) => {
          const docs = new Map<number, { owner: string; body: string }>();
          const index = new SearchIndex((seq) => {
            const doc = docs.get(seq);
            return doc && { owner: doc.owner, title: '', body: doc.body };
          });
          for (const { doc, text: body, other } of ops) {
            if (docs.has(doc)) {
              index.remove(doc);
              docs.delete(doc);
            }
            if (body !== undefined) {
              docs.set(doc, { owner: other ? 'other' : 'caller', body });
              index.add(doc);
            }
            const own = new Map([...docs].filter(([, d]) => d.owner === 'caller').map(([seq, d]) => [seq, d.body]));
            const got = index.search(
              index.view('caller'),
              q,
              k,
              () => true,
              (a, b) => a - b,
            );
            expect(got.map((h) => [h.seq, h.score])).toEqual(bm25ByRule(own, q, k));
          }
        },
      ),
      { numRuns: 100, seed: 23 },
    );
  });
});

/**
 * BM25 written out plainly over the caller's documents: each distinct query term the corpus holds,
 * in query order, adds idf x tf (K1 + 1) / (tf + K1 (1 - B + B length / average length)); the k
 * best first, ties by seq. The same expressions as the index, so the same doubles.
 */
function bm25ByRule(corpus: Map<number, string>, query: string[], k: number): Array<[number, number]> {
  const K1 = 1.2;
  const B = 0.75;
  const tfs = new Map([...corpus].map(([seq, body]) => [seq, termCounts(body)]));
  const length = (seq: number) => [...tfs.get(seq)!.values()].reduce((a, b) => a + b, 0);
  let total = 0;
  for (const seq of corpus.keys()) total += length(seq);
  const avg = total / Math.max(1, corpus.size);
  const df = (t: string) => [...tfs.values()].filter((terms) => terms.has(t)).length;
  const terms = [...new Set(query)].filter((t) => df(t) > 0);
  const out: Array<[number, number]> = [];
  for (const [seq, doc] of tfs) {
    const factor = K1 * (1 - B + (B * length(seq)) / avg);
    let score = 0;
    let held = false;
    for (const t of terms) {
      const tf = doc.get(t);
      if (tf === undefined) continue;
      held = true;
      const idf = Math.log(1 + (corpus.size - df(t) + 0.5) / (df(t) + 0.5));
      score += idf * ((tf * (K1 + 1)) / (tf + factor));
    }
    if (held) out.push([seq, score]);
  }
  return out.sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, k);
}

describe('relevance statistics are per user', () => {
  const bobsNotes = [
    'garden plan\nseeds tomato basil garden soil',
    'garden tools\nrake spade garden',
    'tomato recipe\ntomato basil pasta',
    'trip notes\ntrain hotel museum',
  ];
  const alicesNotes = Array.from(
    { length: 40 },
    (_, i) => `garden ${i}\ntomato tomato basil garden ${i % 3 ? 'soil' : 'hotel'}`,
  );

  function bobsAnswers(withAlice: boolean) {
    const h = harness();
    if (withAlice) for (const content of alicesNotes) createNote(h.ctx, h.alice, { content });
    const ids: string[] = [];
    for (const content of bobsNotes) ids.push(createNote(h.ctx, h.bob, { content }).id as string);
    if (withAlice) for (const content of alicesNotes) createNote(h.ctx, h.alice, { content: `${content} later` });
    const titles = (view: View) => (view.results as View[]).map((r) => r.title);
    const index = h.ctx.store.search;
    const hits = index.search(
      relevanceView(h.ctx, h.bob),
      ['garden', 'tomato', 'hotel'],
      10,
      () => true,
      (a, b) => a - b,
    );
    return {
      search: titles(searchNotes(h.ctx, h.bob, {}, { query: 'garden tomato hotel' })),
      bm25: hits.map((hit) => [h.ctx.store.notesBySeq[hit.seq]!.title, hit.score]),
      related: ids.map((id) => scores(relatedNotes(h.ctx, h.bob, id, {}))),
    };
  }

  it("user 2's search order, BM25 scores and related scores are the same whether or not user 1 has notes", () => {
    const alone = bobsAnswers(false);
    expect(alone.search.length).toBeGreaterThan(1);
    expect(alone.related.flat().length).toBeGreaterThan(2);
    expect(bobsAnswers(true)).toEqual(alone);
  });

  it('notes shared with the caller count in their statistics; notes merely in the store do not', () => {
    const h = harness();
    const own = createNote(h.ctx, h.bob, { content: 'garden plan\ngarden tomato basil' }).id as string;
    createNote(h.ctx, h.bob, { content: 'tomato salad\ntomato basil oil' });
    const before = scores(relatedNotes(h.ctx, h.bob, own, {}));
    const shelf = createCollection(h.ctx, h.alice, { title: 'shared shelf' }).id as string;
    for (let i = 0; i < 6; i++)
      createNote(h.ctx, h.alice, { content: `basil ${i}\nbasil basil`, collection_ids: [shelf] });
    expect(scores(relatedNotes(h.ctx, h.bob, own, {}))).toEqual(before);
    grant(h.ctx, { resource: 'collection', id: shelf, token: 'bob-token-0', level: 'access' });
    const shared = relatedNotes(h.ctx, h.bob, own, {});
    // The shared notes are candidates now, and six more notes with "basil" lower its weight.
    expect(ids(shared)).toHaveLength(7);
    expect(scores(shared).find(([title]) => title === 'tomato salad')).not.toEqual(before[0]);
    // The same answer from a fresh view computed the slow way (shared notes in the view, no cache).
    const view = relevanceView(h.ctx, h.bob);
    expect(view.documents).toBe(8);
    updateNote(h.ctx, h.bob, own, { content: 'garden plan\ngarden tomato', version: 1 });
    expect(ids(relatedNotes(h.ctx, h.bob, own, {}))).toContain(ids(shared)[0]);
  });
});
