import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FAULT_NAMES, FAULTS } from '../../fake/faults/catalogue.js';
import type { MatrixRow } from '../../kit/matrix.js';
import { packageRoot } from '../../spec/paths.js';
import { loadRules } from '../../spec/rules.js';

/**
 * The fault matrix: the kit against the fake once per fault, in parallel shards (one process
 * each, since every shard runs its own vitest), each fault narrowed to the check files of its
 * rules. The clean fake's all-pass baseline is proved by clean-run.test.ts.
 */

/** Documented rules no fault can break from outside, with the reason (none so far). */
const UNBREAKABLE: Readonly<Record<string, string>> = {};

const scratch = mkdtempSync(join(tmpdir(), 'nc-matrix-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function runShard(index: number, count: number): Promise<MatrixRow[]> {
  const json = join(scratch, `shard-${index}.json`);
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        join(packageRoot, 'bin/notes-conformance.js'),
        'matrix',
        '--shard',
        `${index}/${count}`,
        '--no-baseline',
        '--json',
        json,
      ],
      {
        cwd: packageRoot,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    child.stdout.on('data', (d: Buffer) => {
      output += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      output += d.toString();
    });
    child.on('error', reject);
    // Exit 1 means a fault survived; the assertions below say which.
    child.on('close', (code) =>
      code === 0 || code === 1
        ? resolve(JSON.parse(readFileSync(json, 'utf8')) as MatrixRow[])
        : reject(new Error(`matrix shard ${index}/${count} exited ${code}:\n${output.slice(-3000)}`)),
    );
  });
}

function table(rows: readonly MatrixRow[]): string {
  const lines = rows.flatMap((row) =>
    row.rules.map((r, i) => [r.id, i === 0 ? row.fault : `  (${row.fault})`, r.verdict]),
  );
  const width = [0, 1].map((c) => Math.max(...lines.map((l) => l[c]!.length)));
  return lines.map((l) => `${l[0]!.padEnd(width[0]!)}  ${l[1]!.padEnd(width[1]!)}  ${l[2]}`).join('\n');
}

describe('fault matrix', () => {
  it(
    'every fault is caught by the checks of the rule it breaks, and every documented rule is killed',
    async () => {
      const started = performance.now();
      const count = Math.max(2, Math.min(4, availableParallelism()));
      const rows = (await Promise.all(Array.from({ length: count }, (_, i) => runShard(i + 1, count))))
        .flat()
        .sort((a, b) => a.fault.localeCompare(b.fault));
      const seconds = (performance.now() - started) / 1000;

      const killedRules = new Set(
        rows.flatMap((row) => row.rules.filter((r) => r.verdict === 'fail' || r.verdict === 'warn').map((r) => r.id)),
      );
      const documented = loadRules().filter((r) => r.level === 'documented');
      const killedDocumented = documented.filter((r) => killedRules.has(r.id)).length;
      const summary = {
        faults: rows.length,
        killed: rows.filter((r) => r.killed).length,
        documented_rules: documented.length,
        documented_killed: killedDocumented,
        kill_rate: `${((100 * killedDocumented) / documented.length).toFixed(1)}%`,
        wall_seconds: Math.round(seconds),
        shards: count,
      };
      mkdirSync(join(packageRoot, 'reports'), { recursive: true });
      writeFileSync(
        join(packageRoot, 'reports/fault-matrix.json'),
        `${JSON.stringify({ summary, unbreakable: UNBREAKABLE, rows }, null, 2)}\n`,
      );
      console.log(`${table(rows)}\n\nfault matrix: ${JSON.stringify(summary)}\n(written to reports/fault-matrix.json)`);

      expect(rows.map((r) => r.fault).sort()).toEqual([...FAULT_NAMES]);
      expect(
        rows
          .filter((r) => !r.killed)
          .map(
            (r) =>
              `${r.fault} -> ${r.rules[0]!.id}: ${r.rules[0]!.verdict} (${r.rules[0]!.reason}); ` +
              `replay: notes-conformance --workers 1 --fake-fault ${r.fault} --seed ${r.seed ?? '?'}` +
              (FAULTS[r.fault].judgedBy === 'oracle' ? '' : r.rules.map((rule) => ` --only ${rule.id}`).join('')),
          ),
      ).toEqual([]);
      expect(documented.filter((r) => !killedRules.has(r.id) && !(r.id in UNBREAKABLE)).map((r) => r.id)).toEqual([]);
      // Every fault names the rules it breaks; a rule it names but leaves passing is a stale claim.
      expect(
        rows.flatMap((row) =>
          row.rules.filter((r) => r.verdict === 'pass').map((r) => `${row.fault} leaves ${r.id} passing`),
        ),
      ).toEqual([]);
      for (const fault of FAULT_NAMES) expect(FAULTS[fault].rules.length).toBeGreaterThan(0);
    },
    45 * 60_000,
  );
});
