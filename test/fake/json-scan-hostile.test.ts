import { describe, expect, it } from 'vitest';
import { answer, cores, fields } from './json-scan-cores.js';

/**
 * The body scan (json-scan.ts) answers the hostile 4 MiB bodies of bench/worst-cases.js exactly as
 * JSON.parse did. A proof, not a unit test (vitest.config.ts): about 10 s, most of it the old
 * parsing of a body nested two million deep; test/fake/json-scan.property.test.ts compares random
 * bodies of every kind in the fast tier.
 */
describe('answers of the fake to hostile bodies: readJsonBody against JSON.parse', () => {
  it('the hostile bodies of bench/worst-cases.js', () => {
    const MIB4 = 4 * 1024 * 1024;
    const depth = Math.floor((MIB4 - 200) / 2);
    const nested = `${'['.repeat(depth)}${']'.repeat(depth)}`;
    const bodies: Array<[string, string]> = [
      ['/v2/notes', `{"content":"x","pad":${nested}}`],
      ['/v2/notes', `{"content":${nested}}`],
      ['/v2/notes', `{"content":"x","pad":${nested.slice(1)}}`],
      ['/v2/notes/search', JSON.stringify({ query: 'x', collections: Array(1_398_000).fill({}) })],
      [
        '/v2/notes',
        JSON.stringify({
          content: 'x',
          ...Object.fromEntries(Array.from({ length: 200_000 }, (_, i) => [`k${i}`, 1])),
        }),
      ],
      ['/v2/notes/search', JSON.stringify({ query: 'x', collections: Array(2_096_000).fill(1) })],
      ['/v2/notes', JSON.stringify({ content: 'x', created_at: `2025-01-01T00:00:00.${'9'.repeat(MIB4 - 1_224)}Z` })],
      // The 4 MiB edge: unknown fields, array-index keys, small containers (malformed), items too deep for a run.
      ['/v2/notes', fields(MIB4 - 1_224, (i) => `k${i.toString(36)}`)],
      ['/v2/notes', fields(MIB4 - 1_224, (i) => String(i))],
      ['/v2/notes', `{"content":"x","pad":[${'[1],'.repeat(1_000_000)}[1]}`],
      ['/v2/notes', `{"content":"x","pad":[${'[[[1]]],'.repeat(520_000)}[1]]}`],
    ];
    // Under `fake` unknown fields are refused by name, under `hosted` dropped (the answer is 200).
    for (const profile of ['fake', 'hosted']) {
      const { now, before } = cores(profile);
      for (const [url, text] of profile === 'fake' ? bodies : [0, 3, 4, 6].map((i) => bodies[i]!)) {
        const started = performance.now();
        const ours = answer(now, 'POST', url, text);
        const ms = performance.now() - started;
        expect(ours).toEqual(answer(before, 'POST', url, text));
        // Generous (a shared machine, code not warmed up in a test worker): a cost that grows
        // faster than the body would blow it.
        expect(ms, `${url} ${text.slice(0, 40)}`).toBeLessThan(2_000);
      }
    }
  }, 300_000);
});
