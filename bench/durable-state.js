// What --state costs (a script, not a test: numbers depend on the machine).
//   npm run build && BENCH_SECONDS=2 node bench/durable-state.js
// Create throughput of the built fake with and without --state (every change journaled before its
// answer), then the time of a full save (the start's, and a compaction's) and of a restart that
// replays the journal, at NOTES notes.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { createFake } from '../dist/fake/index.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const NOTES = Number(process.env.NOTES ?? 20_000);
const TOKEN = 'bench-token-0001';
const dir = mkdtempSync(join(tmpdir(), 'bench-state-'));

const create = (url) =>
  new Promise((resolve, reject) =>
    autocannon(
      {
        url: `${url}/v2/notes`,
        method: 'POST',
        duration: SECONDS,
        connections: 16,
        headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          content: 'a title\nsome words of a typical note, about a hundred characters long, to journal',
        }),
      },
      (err, result) => (err ? reject(err) : resolve(result)),
    ),
  );
const row = (what, r) =>
  console.log(
    `${what.padEnd(34)} ${String(Math.round(r.requests.average)).padStart(7)} req/s  p99 ${r.latency.p99} ms  non-2xx ${r.non2xx}`,
  );

try {
  const plain = await createFake({ users: [TOKEN] });
  row('POST /v2/notes, no --state', await create(plain.url));
  await plain.close();

  const state = join(dir, 'state.json');
  const durable = await createFake({ users: [TOKEN], state });
  const result = await create(durable.url);
  row('POST /v2/notes, --state', result);
  const journal = statSync(`${state}.journal`).size;
  let t = performance.now();
  await durable.close();
  console.log(
    `close (journal of ${(journal / 1048576).toFixed(1)} MiB folded, ${durable.store.notes.size} notes): ${Math.round(performance.now() - t)} ms`,
  );

  const big = join(dir, 'big.json');
  t = performance.now();
  const seeded = await createFake({ users: [TOKEN], generate: NOTES, state: big, listen: false });
  console.log(`start with --generate ${NOTES} and the first full save: ${Math.round(performance.now() - t)} ms`);
  for (let i = 0; i < 1_000; i++)
    seeded.handle({
      method: 'POST',
      url: '/v2/notes',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ content: `journaled ${i}` }),
    });
  // A crash image: the state file plus a journal of 1,000 changes, replayed at the next start.
  const { copyFileSync } = await import('node:fs');
  const crash = join(dir, 'crash.json');
  copyFileSync(big, crash);
  copyFileSync(`${big}.journal`, `${crash}.journal`);
  t = performance.now();
  await seeded.close();
  console.log(
    `full save of ${NOTES + 1_000} notes (${(statSync(big).size / 1048576).toFixed(1)} MiB): ${Math.round(performance.now() - t)} ms`,
  );
  t = performance.now();
  const restarted = await createFake({ state: crash, listen: false });
  console.log(
    `restart: load, replay 1,000 journaled changes, save: ${Math.round(performance.now() - t)} ms (${restarted.store.notes.size} notes)`,
  );
  await restarted.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
