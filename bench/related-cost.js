// CPU time of related notes at BENCH_NOTES notes, in-process (a script, not a test).
//   npm run build && node bench/related-cost.js            (BENCH_NOTES=100000, BENCH_GENERATE=1 for --generate data)
// Prints the median, p99 and max CPU time of related-notes requests for 1,000 different notes with
// cached norms, and of requests that each follow a write (norms recomputed). CPU time, not wall
// time: on a shared machine wall time counts other processes' turns on the cores.
import { createFake } from '../dist/fake/index.js';
import { VOCAB } from './vocab.js';

const NOTES = Number(process.env.BENCH_NOTES ?? 100_000);
const GENERATE = process.env.BENCH_GENERATE === '1';
const TOKEN = 'bench-token-0001';
const fake = await createFake({ users: [TOKEN], listen: false, seed: 42, ...(GENERATE ? { generate: NOTES } : {}) });
const call = (method, url, body) =>
  fake.handle({
    method,
    url,
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
if (!GENERATE) {
  let seed = 42;
  const rand = () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const words = (n) => Array.from({ length: n }, () => VOCAB[Math.floor(VOCAB.length * rand() ** 3)]).join(' ');
  for (let i = 0; i < NOTES; i++) call('POST', '/v2/notes', { content: `${words(3)}\n${words(27)}` });
}
const ids = [...fake.store.notes.keys()].filter((_, i) => i % Math.max(1, Math.floor(NOTES / 1000)) === 0);
const cpuMs = (fn) => {
  const before = process.cpuUsage();
  fn();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
};
const summary = (times) => {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))].toFixed(1);
  return `p50 ${at(0.5)} ms, p99 ${at(0.99)} ms, max ${sorted[sorted.length - 1].toFixed(1)} ms`;
};
let results = 0;
const related = (id) => {
  const r = call('GET', `/v2/notes/${id}/related-notes?limit=20`);
  if (r.status !== 200) throw new Error(`related-notes answered ${r.status}`);
  results += r.json.results.length;
};
related(ids[0]);
const warm = ids.map((id) => cpuMs(() => related(id)));
const cold = ids.slice(0, 100).map((id, i) => {
  call('POST', '/v2/notes', { content: `write ${i}` });
  return cpuMs(() => related(id));
});
const what = GENERATE ? `--generate ${NOTES}` : `${NOTES} seeded notes`;
console.log(
  `related notes at ${what}, ${ids.length} notes asked (${(results / (ids.length + 101)).toFixed(1)} results each)`,
);
console.log(`  norms cached:             ${summary(warm)} CPU`);
console.log(`  right after a write:      ${summary(cold)} CPU`);
