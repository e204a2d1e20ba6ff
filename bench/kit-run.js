// Wall and CPU time of a full kit run against the embedded fake (a script, not a test: it depends
// on the machine). Each run is a fresh process, as a user would start it; CPU time (user + sys of
// the kit, its vitest worker and the embedded fake) is what the run cost whatever else the machine
// was doing, wall time what a user waited.
//   npm run build && node bench/kit-run.js [runs=3] [extra kit flags...]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { childrenCpuSeconds, cpuText, median } from './cpu-time.js';

const runs = Number(process.argv[2] ?? 3);
const extra = process.argv.slice(3);
const bin = new URL('../bin/notes-conformance.js', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'nc-bench-'));
const rows = [];
try {
  for (let i = 1; i <= runs; i++) {
    const json = join(dir, `run-${i}.json`);
    const cpuBefore = childrenCpuSeconds();
    const started = performance.now();
    const out = spawnSync(process.execPath, [bin, '--quiet', '--json', json, ...extra], { encoding: 'utf8' });
    const seconds = (performance.now() - started) / 1000;
    const cpu = cpuBefore === undefined ? undefined : childrenCpuSeconds() - cpuBefore;
    if (out.status !== 0) {
      console.error(out.stdout, out.stderr);
      throw new Error(`run ${i} exited ${out.status}`);
    }
    const report = JSON.parse(readFileSync(json, 'utf8'));
    rows.push({ seconds, cpu, requests: report.requests });
    console.log(
      `run ${i}: ${seconds.toFixed(1)} s${cpuText(cpu)}, ${report.requests} requests (${Math.round(report.requests / seconds)}/s), ${report.summary.pass}/${report.rules.length} rules pass`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
const cpus = rows.map((r) => r.cpu).filter((c) => c !== undefined);
console.log(
  `\nfull kit run against the embedded fake: median ${median(rows.map((r) => r.seconds)).toFixed(1)} s` +
    `${cpus.length > 0 ? ` (${median(cpus).toFixed(1)} s CPU)` : ''}, best ${Math.min(...rows.map((r) => r.seconds)).toFixed(1)} s` +
    ` over ${runs} run(s), ${median(rows.map((r) => r.requests))} requests (node ${process.version},` +
    ` load average ${loadavg()[0].toFixed(1)})`,
);
