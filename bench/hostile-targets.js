// What the kit costs against hostile answers (a script, not a test: numbers depend on the machine).
//   npm run build && node bench/hostile-targets.js
//   BENCH_HOSTILE='{} items,0 items' runs those cases only; BENCH_ITEMS=1000000 items a list
//   (default a million); BENCH_ONLY='notes.list' passes --only to the runs (default: the full tier).
// Each case starts a target in this process and runs the built CLI against it in a child process,
// as a user would. While the run goes, /proc is sampled every 50 ms for the CLI and every process
// it started (its vitest workers): the peak resident set of each process, and the peak of their
// sum. The cases: after the start-up probe, every request is answered with a list of a million
// `{}` (3 MB, within the kit's 8 MiB byte cap: each answer parses), or of a million `0`; and 429
// with Retry-After: 59 forever after the probe (the run's wall time). Budget: every process under
// 500 MiB; a target that rate-limits forever ends the run within 90 s.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';

const ITEMS = Number(process.env.BENCH_ITEMS ?? 1_000_000);
const ONLY = process.env.BENCH_ONLY?.split(',').filter(Boolean) ?? [];
const MIB = 2 ** 20;
const RSS_BUDGET = 500 * MIB;
const WAIT_BUDGET_MS = 90_000;
const TOKEN = 'bench-hostile-token-0001';
const cli = fileURLToPath(new URL('../bin/notes-conformance.js', import.meta.url));

const probeAnswer = JSON.stringify({ results: [], total: 0, request_id: 'probe' });
const list = (item) =>
  Buffer.from(`{"request_id":"big","total":${ITEMS},"results":[${new Array(ITEMS).fill(item).join(',')}]}`);

const CASES = [
  { name: '{} items', body: () => list('{}') },
  { name: '0 items', body: () => list('0') },
  {
    name: '429 Retry-After: 59',
    status: 429,
    headers: { 'retry-after': '59' },
    body: () => Buffer.from('{"error":"rate_limited"}'),
  },
];

/** A target answering the first request (the kit's start-up probe) like the API, then `answer` to every other. */
function target(c) {
  const body = c.body();
  let hits = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      hits++;
      if (hits === 1) {
        res.writeHead(200, { 'content-type': 'application/json' });
        return void res.end(probeAnswer);
      }
      res.writeHead(c.status ?? 200, { 'content-type': 'application/json', ...(c.headers ?? {}) });
      res.end(body);
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ url: `http://127.0.0.1:${server.address().port}`, hits: () => hits, close: () => server.close() }),
    ),
  );
}

/** The resident set of every process descending from `root` (itself included), by pid. */
function treeRss(root) {
  const parent = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      parent.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // gone meanwhile
    }
  }
  const inTree = (pid) => {
    for (let p = pid, hops = 0; p > 1 && hops < 16; p = parent.get(p) ?? 0, hops++) if (p === root) return true;
    return false;
  };
  const out = new Map();
  for (const pid of parent.keys()) {
    if (!inTree(pid)) continue;
    try {
      const kb = Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
      out.set(pid, { bytes: kb * 1024, what: pid === root ? 'the run command' : describe(cmd) });
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

const describe = (cmd) =>
  cmd.some((a) => /vitest|worker|fork/.test(a)) ? 'a check worker' : cmd.slice(0, 2).join(' ');

async function measure(c) {
  const t = await target(c);
  const args = [
    '--target',
    t.url,
    '--token',
    TOKEN,
    '--requests-per-second',
    '1000',
    ...ONLY.flatMap((o) => ['--only', o]),
  ];
  const started = performance.now();
  const child = spawn(process.execPath, [cli, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const peaks = new Map();
  let peakSum = 0;
  const timer = setInterval(() => {
    const now = treeRss(child.pid);
    let sum = 0;
    for (const [pid, p] of now) {
      sum += p.bytes;
      if ((peaks.get(pid)?.bytes ?? 0) < p.bytes) peaks.set(pid, p);
    }
    peakSum = Math.max(peakSum, sum);
  }, 50);
  const code = await new Promise((resolve) => child.once('exit', (status) => resolve(status)));
  clearInterval(timer);
  t.close();
  const ms = performance.now() - started;
  const worst = [...peaks.values()].sort((a, b) => b.bytes - a.bytes)[0] ?? { bytes: 0, what: 'nothing sampled' };
  const headline =
    output.split('\n').find((l) => l.startsWith('notes-conformance: ') && / against /.test(l)) ??
    output.trim().split('\n').pop();
  return { name: c.name, code, ms, hits: t.hits(), worst, peakSum, processes: peaks.size, headline };
}

const picked = process.env.BENCH_HOSTILE?.split(',').map((s) => s.trim());
const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
console.log(
  `hostile targets: ${ITEMS.toLocaleString('en-US')} items a list${ONLY.length ? `, --only ${ONLY.join(' ')}` : ', full tier'}; load ${load()}`,
);
let over = false;
for (const c of CASES.filter((x) => !picked || picked.includes(x.name))) {
  const r = await measure(c);
  const mib = (bytes) => `${(bytes / MIB).toFixed(0)} MiB`;
  const rss = `largest process ${mib(r.worst.bytes)} (${r.worst.what}), tree ${mib(r.peakSum)} over ${r.processes} processes`;
  const late = c.status === 429 && r.ms > WAIT_BUDGET_MS;
  const big = r.worst.bytes > RSS_BUDGET;
  over ||= late || big;
  const flags = `${big ? '  OVER 500 MiB' : ''}${late ? '  OVER 90 s' : ''}`;
  const seconds = (r.ms / 1000).toFixed(1).padStart(6);
  console.log(`${c.name.padEnd(20)} ${seconds} s  exit ${r.code}  ${r.hits} requests  ${rss}${flags}`);
  console.log(`${''.padEnd(20)} ${r.headline?.slice(0, 160)}`);
}
console.log(`load after ${load()}`);
process.exitCode = over ? 1 : 0;
