// Memory of `notes-conformance fake --generate N` (a script, not a test: numbers depend on the machine).
//   npm run build && node bench/generate-memory.js              (1,000,000 notes by default)
//   BENCH_GENERATE=200000,1000000 node bench/generate-memory.js   (BIN=other/bin/notes-conformance.js)
// Starts the CLI as its own process, as a client developer would, and reads the kernel's account
// of its memory (/proc/PID/status): VmHWM, the peak resident set over the whole generation, and
// VmRSS once it listens. Then a run whose notes cannot fit (BENCH_GENERATE_TOO_MANY notes in a
// 256 MiB heap) shows the one line the fake answers instead of a V8 out-of-memory abort.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const COUNTS = (process.env.BENCH_GENERATE ?? '1000000').split(',').map(Number);
const TOO_MANY = Number(process.env.BENCH_GENERATE_TOO_MANY ?? 1_000_000);
const TARGET_MIB = 2048;
// BIN= measures another checkout's CLI (its bin/notes-conformance.js).
const BIN = process.env.BIN ?? new URL('../bin/notes-conformance.js', import.meta.url).pathname;
const args = (n) => [BIN, 'fake', '--port', '0', '--token', 'bench-token-0001', '--generate', String(n)];
const mib = (kib) => Math.round(kib / 1024);

/** kB figures of /proc/PID/status, by name. */
function status(pid) {
  const out = {};
  for (const line of readFileSync(`/proc/${pid}/status`, 'utf8').split('\n')) {
    const m = /^(\w+):\s+(\d+) kB/.exec(line);
    if (m) out[m[1]] = Number(m[2]);
  }
  return out;
}

/** Starts the fake with N generated notes; answers its memory once it listens. */
function measure(n) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args(n), { stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
      if (!output.includes('listening on')) return;
      const { VmHWM, VmRSS } = status(child.pid);
      child.kill();
      resolve({ n, seconds: (performance.now() - started) / 1000, peak: VmHWM, rss: VmRSS });
    });
    child.on('exit', (code) => reject(new Error(`--generate ${n} exited with ${code} before listening: ${output}`)));
  });
}

const rows = [];
for (const n of COUNTS) {
  const row = await measure(n);
  rows.push(row);
  console.log(
    `--generate ${n}: ${mib(row.peak)} MiB peak RSS, ${mib(row.rss)} MiB RSS listening, ${row.seconds.toFixed(0)} s`,
  );
}
const refused = spawnSync(process.execPath, ['--max-old-space-size=256', ...args(TOO_MANY)], { encoding: 'utf8' });

console.log(`\n--generate memory (node ${process.version}, target <= ${TARGET_MIB} MiB at 1,000,000 notes)\n`);
console.log('| notes | peak RSS | RSS listening | time to listen |');
console.log('|---|---|---|---|');
for (const r of rows)
  console.log(
    `| ${r.n.toLocaleString('en-US')} | ${mib(r.peak)} MiB | ${mib(r.rss)} MiB | ${r.seconds.toFixed(0)} s |`,
  );
console.log(
  `\n--generate ${TOO_MANY} in a 256 MiB heap: exit ${refused.status}, ${refused.stderr.trim().split('\n').length} line(s): ${refused.stderr.trim()}`,
);
