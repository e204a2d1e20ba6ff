// Benchmarks of the reference fake (a script, not a test: numbers depend on the machine).
//   npm run build && npm run bench            full run (about a minute)
//   BENCH_SECONDS=3 BENCH_NOTES=20000 ...     shorter
// Reports GET-note and create-note throughput next to a bare node:http JSON server, search and
// related-notes latency percentiles at 100k notes, RSS after seeding 100k notes (plain and
// --generate), RSS after --generate 1,000,000 (BENCH_GENERATE_MAX; 0 skips it) and the one line
// a heap too small for it answers, then the table of bench/worst-cases.js: the worst input per
// text path (BENCH_WORST=0 skips it).
import { fork, spawnSync } from 'node:child_process';
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
/** Keeps a row for the summary and prints it at once (a long run interrupted keeps what it measured). */
function record(row) {
  rows.push(row);
  console.log(`  ${row.join('   ')}`);
}

const bare = await start('bare');
const bareGet = await run({ url: `${bare.url}/v2/notes/x`, headers });
bare.child.kill();
record(['bare node:http GET (fixed JSON)', `${fmt(bareGet.requests.average)} req/s`, `p99 ${bareGet.latency.p99} ms`]);

const small = await start('fake', 1000);
const fakeGet = await run({ url: `${small.url}/v2/notes/${small.ids[0]}`, headers });
record(['fake GET /v2/notes/{id}', `${fmt(fakeGet.requests.average)} req/s`, `p99 ${fakeGet.latency.p99} ms`]);
let n = 0;
const fakeCreate = await run({
  url: `${small.url}/v2/notes`,
  method: 'POST',
  headers,
  setupClient: (client) =>
    client.setBody(JSON.stringify({ content: `bench note ${n++}\nsome body text for the note` })),
});
record(['fake POST /v2/notes', `${fmt(fakeCreate.requests.average)} req/s`, `p99 ${fakeCreate.latency.p99} ms`]);
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
record([
  `fake search at ${fmt(NOTES)} notes (1 connection)`,
  `${fmt(search.requests.average)} req/s`,
  `p50 ${search.latency.p50} ms, p99 ${search.latency.p99} ms, max ${search.latency.max} ms`,
]);
/** Related notes of the first 1,000 notes in turn, one connection (no writes: norms stay cached). */
async function relatedRun(target) {
  let r = 0;
  return run({
    url: `${target.url}/v2/notes/${target.ids[0]}/related-notes`,
    headers,
    connections: 1,
    requests: [
      { setupRequest: (req) => ({ ...req, path: `/v2/notes/${target.ids[r++ % target.ids.length]}/related-notes` }) },
    ],
  });
}
const related = await relatedRun(big);
record([
  `fake related notes at ${fmt(NOTES)} notes (1 connection)`,
  `${fmt(related.requests.average)} req/s`,
  `p50 ${related.latency.p50} ms, p99 ${related.latency.p99} ms, max ${related.latency.max} ms`,
]);
record([
  `seeding ${fmt(NOTES)} notes in-process`,
  `${fmt(NOTES / (big.seedMs / 1000))} notes/s`,
  `rss ${fmt(big.rss / 1048576)} MiB`,
]);
big.child.kill();

const generated = await start('generate', NOTES);
record([
  `--generate ${fmt(NOTES)} (json-schema-faker)`,
  `${fmt(NOTES / (generated.seedMs / 1000))} notes/s`,
  `rss ${fmt(generated.rss / 1048576)} MiB`,
]);
const generatedRelated = await relatedRun(generated);
record([
  `fake related notes, --generate ${fmt(NOTES)} (1 connection)`,
  `${fmt(generatedRelated.requests.average)} req/s`,
  `p50 ${generatedRelated.latency.p50} ms, p99 ${generatedRelated.latency.p99} ms, max ${generatedRelated.latency.max} ms`,
]);
generated.child.kill();

// The largest generation: its RSS after seeding, then what a heap too small for it answers.
const GENERATE_MAX = Number(process.env.BENCH_GENERATE_MAX ?? 1_000_000);
let million;
if (GENERATE_MAX > 0) {
  million = await start('generate', GENERATE_MAX);
  record([
    `--generate ${fmt(GENERATE_MAX)}`,
    `${fmt(GENERATE_MAX / (million.seedMs / 1000))} notes/s`,
    `rss ${fmt(million.rss / 1048576)} MiB`,
  ]);
  million.child.kill();
  const refused = spawnSync(
    process.execPath,
    [
      '--max-old-space-size=256',
      'bin/notes-conformance.js',
      'fake',
      '--port',
      '0',
      '--token',
      TOKEN,
      '--generate',
      String(GENERATE_MAX),
    ],
    { encoding: 'utf8' },
  );
  record([`--generate ${fmt(GENERATE_MAX)} in a 256 MiB heap`, `exit ${refused.status}`, refused.stderr.trim()]);
}

const ratio = fakeGet.requests.average / bareGet.requests.average;
console.log(
  `\nnotes-conformance fake benchmark (${SECONDS}s per run, ${CONNECTIONS} connections, node ${process.version})\n`,
);
for (const [what, rate, latency] of rows) console.log(`${what.padEnd(44)} ${rate.padStart(14)}   ${latency}`);
console.log(`\nGET note: ${(ratio * 100).toFixed(0)}% of bare node:http (target >= 50%)`);
console.log(`create:   ${fmt(fakeCreate.requests.average)} req/s (target >= 7,000)`);
console.log(`search:   p99 ${search.latency.p99} ms at ${fmt(NOTES)} notes (target < 20 ms)`);
console.log(
  `related:  p50 ${related.latency.p50} ms, p99 ${related.latency.p99} ms at ${fmt(NOTES)} notes; generated p50 ${generatedRelated.latency.p50} ms, p99 ${generatedRelated.latency.p99} ms (target p50 < 20 ms, p99 < 100 ms)`,
);
if (million)
  console.log(`generate: ${fmt(million.rss / 1048576)} MiB RSS at ${fmt(GENERATE_MAX)} notes (target <= 2,048 MiB)`);
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
  search.non2xx +
  related.errors +
  related.non2xx +
  generatedRelated.errors +
  generatedRelated.non2xx;
if (errors > 0) console.log(`\nWARNING: ${errors} errors or non-2xx responses during the runs`);

// The worst input per text path, each timed in the server process (issue 19: none above 100 ms).
if (process.env.BENCH_WORST !== '0') {
  console.log('');
  spawnSync(process.execPath, [new URL('./worst-cases.js', import.meta.url).pathname], { stdio: 'inherit' });
}
