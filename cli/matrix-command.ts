import { writeFileSync } from 'node:fs';
import { FAULT_NAMES, type FaultName } from '../fake/faults/catalogue.js';
import { runFaultMatrix } from '../kit/matrix.js';
import { checkReportPaths } from '../kit/report-paths.js';
import { UsageError } from '../spec/verdicts.js';
import { parseFlags } from './flags.js';

/**
 * notes-conformance matrix [--fault PREFIX]... [--shard I/N] [--no-baseline] [--json FILE]:
 * proves each fault is caught by its rule's checks.
 */
export const MATRIX_USAGE = `Usage: notes-conformance matrix [options]

Runs the kit against the reference fake once per fault (a deliberate rule violation) and shows
which check catches it: each fault must fail the rules it breaks.

  --fault NAME        only faults with this name or name prefix (repeatable; see notes-conformance fake --list-faults)
  --shard I/N         only the I-th of N equal shares of the faults (to spread the matrix over processes)
  --no-baseline       do not run the clean fake first (assume every rule passes on it)
  --json FILE         write the rows (fault, rules, verdicts) as JSON
  -h, --help          this text

Exit status: 0 every fault killed, 1 a fault survived, 2 usage error.`;

export async function matrixCommand(argv: string[]): Promise<number> {
  const values = parseFlags(
    argv,
    {
      fault: { type: 'string', multiple: true },
      json: { type: 'string' },
      shard: { type: 'string' },
      'no-baseline': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    'matrix',
  );
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
  const { rows } = await runFaultMatrix({
    faults: faults as FaultName[],
    ...(shard ? { shard } : {}),
    baseline: values['no-baseline'] ? 'assume-pass' : 'run',
    onRow: (row, done, total) =>
      process.stdout.write(
        `${String(done).padStart(3)}/${total} ${row.killed ? 'killed ' : 'SURVIVED'} ${row.fault} -> ` +
          `${row.rules.map((r) => `${r.id}:${r.verdict}`).join(', ')}${row.killed ? '' : ` (${row.rules[0]?.reason})`}\n`,
      ),
  });
  const killed = rows.filter((r) => r.killed).length;
  process.stdout.write(
    `\n${killed} of ${rows.length} faults killed in ${((performance.now() - started) / 1000).toFixed(1)} s\n`,
  );
  if (values.json) writeFileSync(values.json, `${JSON.stringify(rows, null, 2)}\n`);
  return killed === rows.length ? 0 : 1;
}
