import { writeFileSync } from 'node:fs';
import { FAULT_NAMES, type FaultName } from '../fake/faults/catalogue.js';
import { flagsHelp, parseOptions } from '../kit/flags.js';
import { checkReportPaths } from '../kit/report-paths.js';
import { UsageError } from '../spec/verdicts.js';
import { parseFlags } from './flags.js';
import { MATRIX_FLAGS } from './matrix-flags.js';

/**
 * notes-conformance matrix [--fault PREFIX]... [--shard I/N] [--no-baseline] [--json FILE]:
 * proves each fault is caught by its rule's checks.
 */
export const MATRIX_USAGE = `Usage: notes-conformance matrix [options]

Runs the kit against the reference fake once per fault (a deliberate rule violation) and shows
which check catches it: each fault must fail the rules it breaks.

${flagsHelp(MATRIX_FLAGS)}

Exit status: 0 every fault killed, 1 a fault survived, 2 usage error.`;

export async function matrixCommand(argv: string[]): Promise<number> {
  const values = parseFlags(argv, parseOptions(MATRIX_FLAGS), 'matrix');
  if (values.help) {
    process.stdout.write(`${MATRIX_USAGE}\n`);
    return 0;
  }
  if (values.json !== undefined) checkReportPaths({ json: values.json });
  const prefixes = values.fault ?? [];
  const faults = FAULT_NAMES.filter((f) => prefixes.length === 0 || prefixes.some((p) => f === p || f.startsWith(p)));
  if (faults.length === 0) throw new UsageError(`no fault matches ${prefixes.join(', ')}`);
  let shard: { index: number; count: number } | undefined;
  if (values.shard !== undefined) {
    const m = /^(\d+)\/(\d+)$/.exec(values.shard);
    if (!m || Number(m[1]) < 1 || Number(m[1]) > Number(m[2]))
      throw new UsageError(`--shard takes I/N with 1 <= I <= N (got ${values.shard})`);
    shard = { index: Number(m[1]) - 1, count: Number(m[2]) };
  }
  const started = performance.now();
  // Loaded once the flags are good: a bad one is answered without vitest.
  const { runFaultMatrix } = await import('../kit/matrix.js');
  const { rows } = await runFaultMatrix({
    faults: faults as FaultName[],
    ...(shard ? { shard } : {}),
    baseline: values['no-baseline'] ? 'assume-pass' : 'run',
    onRow: (row, done, total) =>
      process.stdout.write(
        `${String(done).padStart(3)}/${total} ${row.killed ? 'killed ' : 'SURVIVED'} ${row.fault} -> ` +
          `${row.rules.map((r) => `${r.id}:${r.verdict}`).join(', ')}${row.killed ? '' : ` (${row.rules[0]?.reason}; seed ${row.seed ?? '?'})`}\n`,
      ),
  });
  const killed = rows.filter((r) => r.killed).length;
  process.stdout.write(
    `\n${killed} of ${rows.length} faults killed in ${((performance.now() - started) / 1000).toFixed(1)} s\n`,
  );
  if (values.json) writeFileSync(values.json, `${JSON.stringify(rows, null, 2)}\n`);
  return killed === rows.length ? 0 : 1;
}
