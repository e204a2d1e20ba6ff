// Wall and CPU time of the fault matrix as test/kit/fault-matrix.test.ts runs it: parallel shard
// processes of `notes-conformance matrix --no-baseline` (a script, not a test: it depends on the
// machine). CPU time (user + sys of every shard, its vitest workers and fakes) is what the matrix
// cost whatever else the machine was doing.
//   npm run build && node bench/fault-matrix.js [--processes P] [--sample K]
// --processes: shard processes run at once (default as the test: the cores, 2 to 4).
// --sample K: only every K-th fault (shards 1..P of P*K), to measure a tenth in a tenth of the time.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { childrenCpuSeconds, cpuText, median } from './cpu-time.js';

const { values } = parseArgs({ options: { processes: { type: 'string' }, sample: { type: 'string' } } });
const processes = Number(values.processes ?? Math.max(2, Math.min(4, availableParallelism())));
const sample = Number(values.sample ?? 1);
if (!(processes >= 1 && sample >= 1)) throw new Error('--processes and --sample take whole numbers >= 1');
const bin = new URL('../bin/notes-conformance.js', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'nc-matrix-bench-'));

function shard(index, count) {
  const json = join(dir, `shard-${index}.json`);
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [bin, 'matrix', '--shard', `${index}/${count}`, '--no-baseline', '--json', json],
      {
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 || code === 1
        ? resolve(JSON.parse(readFileSync(json, 'utf8')))
        : reject(new Error(`shard ${index}/${count} exited ${code}: ${stderr.slice(-2000)}`)),
    );
  });
}

try {
  const cpuBefore = childrenCpuSeconds();
  const started = performance.now();
  const count = processes * sample;
  const rows = (await Promise.all(Array.from({ length: processes }, (_, i) => shard(i + 1, count)))).flat();
  const seconds = (performance.now() - started) / 1000;
  const cpu = cpuBefore === undefined ? undefined : childrenCpuSeconds() - cpuBefore;
  const ms = rows.map((r) => r.ms);
  const slowest = [...rows].sort((a, b) => b.ms - a.ms).slice(0, 5);
  console.log(`slowest faults: ${slowest.map((r) => `${r.fault} ${(r.ms / 1000).toFixed(1)} s`).join(', ')}`);
  console.log(
    `fault matrix${sample > 1 ? ` (every ${sample}th fault)` : ''}: ${rows.length} faults, ` +
      `${rows.filter((r) => r.killed).length} killed, ${seconds.toFixed(1)} s${cpuText(cpu)} in ${processes} processes; ` +
      `per fault median ${(median(ms) / 1000).toFixed(2)} s wall` +
      `${cpu === undefined ? '' : `, ${(cpu / rows.length).toFixed(2)} s CPU`} (node ${process.version}, load average ${loadavg()[0].toFixed(1)})`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
