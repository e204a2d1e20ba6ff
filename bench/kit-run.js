// Wall time of a full kit run against the embedded fake (a script, not a test: it depends on the
// machine). Each run is a fresh process, as a user would start it.
//   npm run build && node bench/kit-run.js [runs=3] [extra kit flags...]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const runs = Number(process.argv[2] ?? 3);
const extra = process.argv.slice(3);
const bin = new URL('../bin/notes-conformance.js', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'nc-bench-'));
const rows = [];
try {
  for (let i = 1; i <= runs; i++) {
    const json = join(dir, `run-${i}.json`);
    const started = performance.now();
    const out = spawnSync(process.execPath, [bin, '--quiet', '--json', json, ...extra], { encoding: 'utf8' });
    const seconds = (performance.now() - started) / 1000;
    if (out.status !== 0) {
      console.error(out.stdout, out.stderr);
      throw new Error(`run ${i} exited ${out.status}`);
    }
    const report = JSON.parse(readFileSync(json, 'utf8'));
    rows.push({ seconds, requests: report.requests, rules: report.rules.length, pass: report.summary.pass });
    console.log(
      `run ${i}: ${seconds.toFixed(1)} s, ${report.requests} requests (${Math.round(report.requests / seconds)}/s), ${report.summary.pass}/${report.rules.length} rules pass`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
const times = rows.map((r) => r.seconds).sort((a, b) => a - b);
console.log(
  `\nfull kit run against the embedded fake: median ${times[Math.floor(times.length / 2)].toFixed(1)} s, best ${times[0].toFixed(1)} s over ${runs} run(s) (node ${process.version})`,
);
