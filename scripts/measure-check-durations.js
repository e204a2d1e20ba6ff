#!/usr/bin/env node
// Measures how long each check file takes against the embedded fake and writes the table the run
// orders its files by (kit/check-durations.ts): the median of RUNS runs of the conformance project
// in the kit's mode (one worker that keeps its modules; in vitest's own order, on which what a file
// takes hardly depends), rounded to 10 ms. Run it after adding a check file or changing what a
// check sends; the figures order files only, never judge them.
//   node scripts/measure-check-durations.js [runs=3]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const runs = Number(process.argv[2] ?? 3);
const dir = mkdtempSync(join(tmpdir(), 'nc-durations-'));
const byFile = new Map();
try {
  for (let i = 1; i <= runs; i++) {
    const out = join(dir, `run-${i}.json`);
    const vitest = join(root, 'node_modules', 'vitest', 'vitest.mjs');
    const run = spawnSync(
      process.execPath,
      [
        vitest,
        'run',
        '--project',
        'conformance',
        '--no-isolate',
        '--no-file-parallelism',
        '--maxWorkers=1',
        '--reporter=json',
        `--outputFile=${out}`,
      ],
      { cwd: root, encoding: 'utf8' },
    );
    if (run.status !== 0) throw new Error(`run ${i} exited ${run.status}:\n${run.stdout}\n${run.stderr}`);
    for (const file of JSON.parse(readFileSync(out, 'utf8')).testResults) {
      const name = relative(root, file.name).split('\\').join('/');
      byFile.set(name, [...(byFile.get(name) ?? []), file.endTime - file.startTime]);
    }
    console.log(`run ${i} of ${runs}: ${byFile.size} files`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
const ms = Object.fromEntries(
  [...byFile]
    .map(([file, times]) => [file, Math.max(10, Math.round(median(times) / 10) * 10)])
    .sort(([a], [b]) => a.localeCompare(b)),
);
const about = 'How long each check file takes against the embedded fake (ms); see kit/check-durations.ts.';
const path = join(root, 'kit', 'check-durations.json');
writeFileSync(path, `${JSON.stringify({ about, ms }, null, 2)}\n`);
const total = Object.values(ms).reduce((a, b) => a + b, 0);
console.log(`${path}: ${Object.keys(ms).length} files, ${(total / 1000).toFixed(1)} s in all`);
