import { valueAt } from './normalise.js';
import type { DiffResult, DiffTarget } from './run.js';

/** The printed outcome: one summary line, and for a difference the steps and both observations. */
export function formatResult(result: DiffResult, target: DiffTarget): string[] {
  const counts = `${result.sequences} sequence(s), ${result.requests} request(s) to the target, ${result.leftovers} resource(s) left behind`;
  const d = result.difference;
  if (!d && result.stopped)
    return [
      `stopped early (${result.stopped}): no difference in the sequences run so far; ${counts}, seed ${result.seed}`,
    ];
  if (!d)
    return [
      `no difference between ${target.label} and the reference fake (profile ${target.profile.name}): ${counts}, seed ${result.seed}`,
    ];
  const lines = [
    `DIFFERENCE at step ${d.steps.length} between ${target.label} and the reference fake (profile ${target.profile.name})`,
    `replay: notes-conformance diff --seed ${d.seed} --path ${d.path} (with the same target options)`,
    'steps:',
    ...d.steps.map((line, i) => `  ${i === d.steps.length - 1 ? '>' : ' '}${String(i + 1).padStart(3)}. ${line}`),
    // The differing fields side by side (a different status says it all); both observations follow in full.
    ...(d.fields.includes('status') ? ['status'] : d.fields).map(
      (f) => `differs: ${f}: target ${valueAt(d.target, f)}, reference ${valueAt(d.reference, f)}`,
    ),
    `  target:    ${JSON.stringify(d.target)}`,
    `  reference: ${JSON.stringify(d.reference)}`,
    counts,
  ];
  return lines;
}
