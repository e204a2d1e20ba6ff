import {
  buildReport,
  type CheckOutcome,
  type ConformanceReport,
  type EvidenceExchange,
} from '../../reporters/report.js';
import type { RuleOutcome } from '../../spec/check-meta.js';
import { loadRules, type Rule } from '../../spec/rules.js';
import { classify, isKitError, isQuotaSpent } from '../../spec/verdicts.js';

export const rule = (id: string, level: Rule['level'] = 'documented', profile?: string): Rule => ({
  id,
  level,
  since: '2025-06-03',
  section: '4. Endpoints',
  quote: ['q'],
  statement: `${id} holds.`,
  needs: [],
  operations: ['createNote'],
  ...(profile ? { profile } : {}),
});

/** How a check ended, as a test tells it; `outcome` turns it into the verdicts the check wrapper decides. */
interface Ending {
  ruleFailures?: Record<string, string>;
  ruleSkips?: Record<string, string>;
  ruleJudged?: Record<string, number>;
  ruleRepros?: Record<string, string>;
  repro?: string;
}

/**
 * A check's outcome with the verdicts suites/harness/check.ts would decide for this ending: rules
 * failed or skipped one by one first, then the check's state and the error it ended on.
 */
export const outcome = (o: Partial<CheckOutcome> & Pick<CheckOutcome, 'rules' | 'state'> & Ending): CheckOutcome => {
  const { ruleFailures = {}, ruleSkips = {}, ruleJudged = {}, ruleRepros = {}, repro, ...rest } = o;
  const first = o.errors?.[0];
  const ended = (): RuleOutcome => {
    if (o.state === 'passed' || first?.name === 'RuleFailures') return { verdict: 'pass', message: '' };
    if (o.state === 'skipped') return { verdict: 'skipped', message: o.note ?? 'skipped' };
    const message = first?.message ?? 'failed without an error';
    const kind = classify(first);
    if (kind === 'fail') return { verdict: 'fail', message, ...(repro ? { repro } : {}) };
    if (isQuotaSpent(first)) return { verdict: 'error', message, quota: true };
    if (isKitError(first)) return { verdict: 'error', message, ...(repro ? { repro } : {}) };
    return { verdict: 'error', message: `${first?.name ?? 'Error'} in the check: ${message}` };
  };
  const verdicts = Object.fromEntries(
    o.rules.map((id): [string, RuleOutcome] => {
      if (id in ruleFailures) {
        const judged = ruleJudged[id];
        const rr = ruleRepros[id] ?? repro;
        return [
          id,
          {
            verdict: 'fail',
            message: ruleFailures[id]!,
            ...(judged !== undefined ? { judged } : {}),
            ...(rr ? { repro: rr } : {}),
          },
        ];
      }
      if (id in ruleSkips) return [id, { verdict: 'skipped', message: ruleSkips[id]! }];
      return [id, ended()];
    }),
  );
  return { name: 'a check', file: 'suites/x.check.ts', errors: [], verdicts, ...rest };
};

export const exchange = (text: string, extra: Partial<EvidenceExchange> = {}): EvidenceExchange => ({
  method: 'POST',
  path: '/v2/notes',
  requestHeaders: { authorization: 'Bearer ***', 'content-type': 'application/json' },
  requestBody: '{"content":"hello"}',
  status: 200,
  headers: { 'content-type': 'application/json' },
  text,
  ...extra,
});

/**
 * A report over the real rule catalogue: the first documented rules of some areas fail (one with a
 * body of `bigBody` characters in its evidence and a repro), one errors, a profile rule fails (with no
 * profile given: it differs from the reference profile), an advisory rule warns, a few skip, the rest
 * pass. Deterministic.
 */
export function catalogueReport(options: { bigBody?: number; profileDeclared?: boolean } = {}): ConformanceReport {
  const rules = loadRules();
  const documented = rules.filter((r) => r.level === 'documented');
  const failing = [
    documented.find((r) => r.id.startsWith('notes.'))!,
    documented.find((r) => r.id.startsWith('collections.'))!,
  ];
  const erroring = documented.find((r) => r.id.startsWith('auth.'))!;
  const profile = rules.find((r) => r.level === 'profile')!;
  const advisory = rules.find((r) => r.level === 'advisory')!;
  const skipped = [
    ...documented.filter((r) => r.id.startsWith('errors.')).slice(0, 2),
    documented.find((r) => r.id.startsWith('quota.'))!,
  ];
  const special = new Set([...failing, erroring, profile, advisory, ...skipped].map((r) => r.id));
  const outcomes: CheckOutcome[] = [
    outcome({
      name: 'create answers with the stored note',
      rules: [failing[0]!.id],
      state: 'failed',
      durationMs: 1234.4,
      seed: 42,
      errors: [{ name: 'AssertionError', message: "expected 'hello ' to be 'hello' // Object.is equality" }],
      evidence: [exchange('x'.repeat(options.bigBody ?? 2000), { status: 201 })],
    }),
    outcome({
      name: 'collection title is kept',
      rules: [failing[1]!.id],
      state: 'failed',
      durationMs: 20,
      errors: [{ name: 'NonConformance', message: 'title came back as "A" <script>alert(1)</script>' }],
      evidence: [exchange('{"title":"A"}', { path: '/v2/collections' })],
    }),
    outcome({
      name: 'bearer refused',
      rules: [erroring.id],
      state: 'failed',
      errors: [{ name: 'KitError', message: 'connection refused' }],
    }),
    outcome({
      name: 'list order',
      rules: [profile.id],
      state: 'failed',
      errors: [{ name: 'AssertionError', message: 'oldest first' }],
    }),
    outcome({
      name: 'advisory',
      rules: [advisory.id],
      state: 'failed',
      errors: [{ name: 'AssertionError', message: 'slow' }],
    }),
    ...skipped.map((r, i) =>
      outcome({
        name: `skip ${r.id}`,
        rules: [r.id],
        state: 'skipped',
        note:
          i < 2 ? `the profile declares no rate-limit headers${' (really)'.repeat(150)}` : 'no quota on this target',
      }),
    ),
    ...rules
      .filter((r) => !special.has(r.id))
      .map((r) => outcome({ name: `check ${r.id}`, rules: [r.id], state: 'passed', durationMs: 5 })),
  ];
  const report = buildReport({
    version: '1.0.0',
    target: 'http://127.0.0.1:4010',
    profileName: 'default',
    profileDeclared: options.profileDeclared ?? false,
    seed: 7,
    only: [],
    rules,
    outcomes,
    requests: 900,
    leftovers: 0,
    runErrors: [],
  });
  const first = report.rules.find((r) => r.id === failing[0]!.id)!;
  first.checks[0]!.repro =
    `curl -sS -X POST 'http://127.0.0.1:4010/v2/notes' -H "Authorization: Bearer $NOTES_TOKEN" --data-binary @- <<'JSON'\n{"content":"hello "}\nJSON`;
  return report;
}
