// Benchmarks of the reference fake (a script, not a test: numbers depend on the machine).
//   npm run build && npm run bench            full run (about a minute)
//   BENCH_SECONDS=3 BENCH_NOTES=20000 ...     shorter
// Reports GET-note and create-note throughput next to a bare node:http JSON server, search
// latency percentiles at 100k notes, and RSS after seeding 100k notes (plain and --generate).
import { fork } from 'node:child_process';
import autocannon from 'autocannon';
import { VOCAB } from './vocab.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const NOTES = Number(process.env.BENCH_NOTES ?? 100_000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const TOKEN = 'bench-token-0001';
const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };

function start(mode, seed = 0) {
  return new Promise((resolve, reject) => {
    const child = fork(new URL('./server.js', import.meta.url), [mode, String(seed)], { stdio: 'inherit' });
    child.once('message', (info) => resolve({ ...info, child, url: `http://127.0.0.1:${info.port}` }));
    child.once('error', reject);
  });
}

function run(opts) {
  return new Promise((resolve, reject) => {
    autocannon({ duration: SECONDS, connections: CONNECTIONS, pipelining: 1, ...opts }, (err, result) =>
      err ? reject(err) : resolve(result),
    );
  });
}

const fmt = (n) => Math.round(n).toLocaleString('en-US');
const rows = [];

const bare = await start('bare');
const bareGet = await run({ url: `${bare.url}/v2/notes/x`, headers });
bare.child.kill();
rows.push([
  'bare node:http GET (fixed JSON)',
  `${fmt(bareGet.requests.average)} req/s`,
  `p99 ${bareGet.latency.p99} ms`,
]);

const small = await start('fake', 1000);
const fakeGet = await run({ url: `${small.url}/v2/notes/${small.ids[0]}`, headers });
rows.push(['fake GET /v2/notes/{id}', `${fmt(fakeGet.requests.average)} req/s`, `p99 ${fakeGet.latency.p99} ms`]);
let n = 0;
const fakeCreate = await run({
  url: `${small.url}/v2/notes`,
  method: 'POST',
  headers,
  setupClient: (client) =>
    client.setBody(JSON.stringify({ content: `bench note ${n++}\nsome body text for the note` })),
});
rows.push(['fake POST /v2/notes', `${fmt(fakeCreate.requests.average)} req/s`, `p99 ${fakeCreate.latency.p99} ms`]);
small.child.kill();

const big = await start('fake', NOTES);
let q = 0;
const queries = Array.from({ length: 200 }, (_, i) => VOCAB[(i * 37) % 400]);
const search = await run({
  url: `${big.url}/v2/notes/search?limit=20`,
  method: 'POST',
  headers,
  connections: 1,
  requests: [{ setupRequest: (req) => ({ ...req, body: JSON.stringify({ query: queries[q++ % queries.length] }) }) }],
});
rows.push([
  `fake search at ${fmt(NOTES)} notes (1 connection)`,
  `${fmt(search.requests.average)} req/s`,
  `p50 ${search.latency.p50} ms, p99 ${search.latency.p99} ms, max ${search.latency.max} ms`,
]);
rows.push([
  `seeding ${fmt(NOTES)} notes in-process`,
  `${fmt(NOTES / (big.seedMs / 1000))} notes/s`,
  `rss ${fmt(big.rss / 1048576)} MiB`,
]);
big.child.kill();

const generated = await start('generate', NOTES);
rows.push([
  `--generate ${fmt(NOTES)} (json-schema-faker)`,
  `${fmt(NOTES / (generated.seedMs / 1000))} notes/s`,
  `rss ${fmt(generated.rss / 1048576)} MiB`,
]);
generated.child.kill();

const ratio = fakeGet.requests.average / bareGet.requests.average;
console.log(
  `\nnotes-conformance fake benchmark (${SECONDS}s per run, ${CONNECTIONS} connections, node ${process.version})\n`,
);
for (const [what, rate, latency] of rows) console.log(`${what.padEnd(44)} ${rate.padStart(14)}   ${latency}`);
console.log(`\nGET note: ${(ratio * 100).toFixed(0)}% of bare node:http (target >= 50%)`);
console.log(`create:   ${fmt(fakeCreate.requests.average)} req/s (target >= 7,000)`);
console.log(`search:   p99 ${search.latency.p99} ms at ${fmt(NOTES)} notes (target < 20 ms)`);
console.log(
  `memory:   ${fmt(Math.max(big.rss, generated.rss) / 1048576)} MiB RSS at ${fmt(NOTES)} notes (target <= 400 MiB)`,
);
const errors =
  bareGet.errors +
  fakeGet.errors +
  fakeCreate.errors +
  search.errors +
  fakeGet.non2xx +
  fakeCreate.non2xx +
  search.non2xx;
if (errors > 0) console.log(`\nWARNING: ${errors} errors or non-2xx responses during the runs`);
