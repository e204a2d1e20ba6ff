#!/usr/bin/env node
// The leave-one-out measure (kit/leave-one-out.ts): every fault of the matrix, run with the checks
// that declare its rules switched off; prints how many the oracle and the model-based runs still
// catch, and a Markdown table (fault, rule, caught by the oracle, the model-based runs or not), and
// writes both to reports/ (leave-one-out.json and .md). A kit run per fault: about as long as that
// many runs (10 to 20 s each on this machine). --shard I/N takes every Nth fault from the Ith (a
// uniform sample of the catalogue, sorted by name).
//   node scripts/measure-leave-one-out.js [--shard I/N] [FAULT...]      (after npm run build)
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const { runLeaveOneOut } = await import('../dist/kit/leave-one-out.js');
const { FAULT_NAMES } = await import('../dist/fake/faults/catalogue.js');
const args = process.argv.slice(2);
const shardAt = args.indexOf('--shard');
const [index, count] = shardAt >= 0 ? args[shardAt + 1].split('/').map(Number) : [0, 1];
const named = args.filter((a, i) => a !== '--shard' && (shardAt < 0 || i !== shardAt + 1));
const faults = (named.length > 0 ? named : FAULT_NAMES).filter((_, i) => i % count === index);
const label = (row) =>
  row.caught ? `CAUGHT (${row.caughtBy.join('+')})` : row.failed.length > 0 ? 'ELSEWHERE' : 'missed   ';
const rows = await runLeaveOneOut({
  faults,
  onRow: (row, done, total) =>
    process.stdout.write(
      `${String(done).padStart(3)}/${total} ${label(row)} ${row.fault} (${row.rule}: ${row.verdict})` +
        ` ${row.failed.length > 0 && !row.caught ? row.failed.slice(0, 3).join(' ') : ''} ${row.ms} ms\n`,
    ),
});
const caught = rows.filter((r) => r.caught).length;
const elsewhere = rows.filter((r) => !r.caught && r.failed.length > 0).length;
process.stdout.write(
  `\n${caught} of ${rows.length} faults caught under their own rule with their checks switched off` +
    ` (${Math.round((100 * caught) / rows.length)}%); ${elsewhere} more failed other rules\n`,
);
const command = `node scripts/measure-leave-one-out.js ${args.join(' ')}`.trim();
const table = [
  `${caught} of ${rows.length} faults caught under their own rule with their checks switched off` +
    ` (${Math.round((100 * caught) / rows.length)}%): \`${command}\``,
  '',
  '| Fault | Rule | Caught by |',
  '|---|---|---|',
  ...rows.map(
    (r) =>
      `| \`${r.fault}\` | \`${r.rule}\` | ${
        r.caught
          ? r.caughtBy.join(', ') || 'a generalist'
          : `not caught (${r.verdict}${r.failed.length > 0 ? `; failed elsewhere: ${r.failed.slice(0, 3).join(', ')}` : ''})`
      } |`,
  ),
].join('\n');
process.stdout.write(`\n${table}\n`);
mkdirSync('reports', { recursive: true });
const base = join('reports', count > 1 ? `leave-one-out-${index}-of-${count}` : 'leave-one-out');
writeFileSync(`${base}.json`, `${JSON.stringify({ caught, elsewhere, total: rows.length, rows }, null, 2)}\n`);
writeFileSync(`${base}.md`, `${table}\n`);
