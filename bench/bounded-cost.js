// Costs of requests that used to be unbounded (a script, not a test: numbers depend on the machine).
//   npm run build && node --expose-gc bench/bounded-cost.js
// Prints the time of a 200,000-character pathological note, of 100,000 unmatched collection titles
// among 1,000 other collections, and the heap/RSS over update-and-search rounds (then after deleting
// every note).
import { createFake } from '../dist/fake/index.js';

const ROUNDS = Number(process.env.ROUNDS ?? 8);
const NOTES = Number(process.env.NOTES ?? 1_000);
const A = 'alice-token-1',
  B = 'bob-token-22';
const fake = await createFake({ users: [A, B], listen: false, snapshotTtlMs: Number(process.env.TTL_MS ?? 3_600_000) });
const call = (method, url, body, token = A) =>
  fake.handle({
    method,
    url,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
const timed = (what, fn) => {
  const t = performance.now();
  const r = fn();
  console.log(`${what.padEnd(58)} ${String(Math.round(performance.now() - t)).padStart(6)} ms  -> ${r.status}`);
  return r;
};
const mib = () => {
  globalThis.gc?.();
  const m = process.memoryUsage();
  return `heap ${(m.heapUsed / 1048576).toFixed(0)} MiB, rss ${(m.rss / 1048576).toFixed(0)} MiB`;
};

const patterns = { image: '![](a', fileLink: '[](a', both: '[](x.pdf![](' };
for (const [name, unit] of Object.entries(patterns)) {
  const content = `x\n${unit.repeat(Math.floor(199_990 / unit.length))}`;
  timed(`pathological note (${name}, ${content.length} chars)`, () => call('POST', '/v2/notes', { content }));
}
for (let i = 0; i < 1_000; i++) call('POST', '/v2/collections', { title: `other collection ${i}` }, B);
const titles = Array.from({ length: 100_000 }, (_, i) => `no such title ${i}`);
timed('100,000 unmatched collection_titles, 1,000 other collections', () =>
  call('POST', '/v2/notes', { content: 'amplified', collection_titles: titles }),
);

console.log(`before rounds: ${mib()}`);
const ids = [];
for (let i = 0; i < NOTES; i++)
  ids.push(call('POST', '/v2/notes', { content: `common note ${i}\n${'lorem ipsum dolor '.repeat(500)}` }).json.id);
for (let round = 1; round <= ROUNDS; round++) {
  for (const id of ids) {
    const note = call('GET', `/v2/notes/${id}`).json;
    call('PATCH', `/v2/notes/${id}`, {
      content: `common note round ${round}\n${`round${round} text `.repeat(600)}`,
      version: note.version,
    });
  }
  for (let s = 0; s < 200; s++)
    call('POST', '/v2/notes/search?limit=50', { query: 'common note', config: { include_content: true } });
  console.log(`round ${round}: ${mib()}, snapshots ${fake.store.snapshots.size}`);
}
for (const id of ids) call('DELETE', `/v2/notes/${id}`);
console.log(`after deleting every note: ${mib()}, snapshots ${fake.store.snapshots.size}`);
