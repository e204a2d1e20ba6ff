import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { FAULT_NAMES, type FaultName } from '../fake/faults/catalogue.js';
import { UsageError } from '../suites/harness/errors.js';
import { runFaultMatrix } from '../kit/matrix.js';

/**
 * notes-conformance matrix [--fault PREFIX]... [--shard I/N] [--no-baseline] [--json FILE]:
 * proves each fault is caught by its rule's checks.
 */
export async function matrixCommand(argv: string[]): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({ args: argv, strict: true, options: {
      fault: { type: 'string', multiple: true }, json: { type: 'string' }, shard: { type: 'string' }, 'no-baseline': { type: 'boolean' },
    } }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const prefixes = values.fault ?? [];
  const faults = FAULT_NAMES.filter((f) => prefixes.length === 0 || prefixes.some((p) => f === p || f.startsWith(p)));
  if (faults.length === 0) throw new UsageError(`no fault matches ${prefixes.join(', ')}`);
  let shard: { index: number; count: number } | undefined;
  if (values.shard !== undefined) {
    const m = /^(\d+)\/(\d+)$/.exec(values.shard);
    if (!m || Number(m[1]) < 1 || Number(m[1]) > Number(m[2])) throw new UsageError(`--shard takes I/N with 1 <= I <= N (got ${values.shard})`);
    shard = { index: Number(m[1]) - 1, count: Number(m[2]) };
  }
  const started = performance.now();
  const { rows } = await runFaultMatrix({
    faults: faults as FaultName[],
    ...(shard ? { shard } : {}),
    baseline: values['no-baseline'] ? 'assume-pass' : 'run',
    onRow: (row, done, total) => process.stdout.write(`${String(done).padStart(3)}/${total} ${row.killed ? 'killed ' : 'SURVIVED'} ${row.fault} -> ${row.rules.map((r) => `${r.id}:${r.verdict}`).join(', ')}${row.killed ? '' : ` (${row.rules[0]?.reason})`}\n`),
  });
  const killed = rows.filter((r) => r.killed).length;
  process.stdout.write(`\n${killed} of ${rows.length} faults killed in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
  if (values.json) writeFileSync(values.json, `${JSON.stringify(rows, null, 2)}\n`);
  return killed === rows.length ? 0 : 1;
}
