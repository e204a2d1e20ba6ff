import type { DiffResult, DiffTarget, Seen } from './run.js';

/** The printed outcome: one summary line, and for a difference the steps, the rule broken and both answers. */
export function formatResult(result: DiffResult, target: DiffTarget): string[] {
  const counts = `${result.sequences} sequence(s), ${result.requests} request(s) to the target, ${result.leftovers} resource(s) left behind`;
  const d = result.difference;
  if (!d && result.stopped)
    return [
      `stopped early (${result.stopped}): no rule broken in the sequences run so far; ${counts}, seed ${result.seed}`,
    ];
  if (!d)
    return [
      `no rule broken by ${target.label} in the sequences (profile ${target.profile.name}): ${counts}, seed ${result.seed}`,
    ];
  const answers = (seen: readonly Seen[]) => seen.map((x) => `    ${x.request} -> ${x.status} ${x.body}`);
  return [
    `DIFFERENCE at step ${d.steps.length}: ${target.label} breaks ${d.rule} (profile ${target.profile.name})`,
    `  ${d.message}`,
    `replay: notes-conformance diff --seed ${d.seed} --path ${d.path} (with the same target options)`,
    'steps:',
    ...d.steps.map((line, i) => `  ${i === d.steps.length - 1 ? '>' : ' '}${String(i + 1).padStart(3)}. ${line}`),
    '  target:',
    ...answers(d.target),
    '  reference (a fresh reference fake, the same steps):',
    ...answers(d.reference),
    counts,
  ];
}
