#!/usr/bin/env node
// Issue 32's held-out batch of sequence faults (fake/faults/sequences.ts): a whole kit run against
// the embedded fake per fault, as the fault matrix runs a fault only the oracle sees; prints which
// the kit catches (the fault's first rule fails) and writes reports/sequence-batch.json. Run it on
// two builds to compare them (the README keeps the figures before and after the explorer).
//   node scripts/measure-batch.js [FAULT...]      (after npm run build)
import { mkdirSync, writeFileSync } from 'node:fs';

const { runFaultMatrix } = await import('../dist/kit/matrix.js');
const { BATCH_FAULT_NAMES } = await import('../dist/fake/faults/catalogue.js');
const named = process.argv.slice(2);
const faults = named.length > 0 ? named : BATCH_FAULT_NAMES;
const started = Date.now();
const { rows } = await runFaultMatrix({
  faults,
  baseline: 'assume-pass',
  onRow: (row, done, total) =>
    process.stdout.write(
      `${String(done).padStart(2)}/${total} ${row.killed ? 'CAUGHT' : 'missed'} ${row.fault}` +
        ` (${row.rules[0].id}: ${row.rules[0].verdict})` +
        `${row.alsoChanged.length > 0 ? ` also: ${row.alsoChanged.slice(0, 3).join(' ')}` : ''} ${row.ms} ms\n`,
    ),
});
const caught = rows.filter((r) => r.killed).length;
const line = `${caught} of ${rows.length} sequence faults caught (${Math.round((Date.now() - started) / 1000)} s)`;
process.stdout.write(`\n${line}\n`);
mkdirSync('reports', { recursive: true });
writeFileSync('reports/sequence-batch.json', `${JSON.stringify({ caught, total: rows.length, rows }, null, 2)}\n`);
