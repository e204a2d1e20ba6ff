import { readFileSync } from 'node:fs';
import { compareReports, isWorse, renderComparison } from '../reporters/compare.js';
import { type ConformanceReport, REPORT_FORMAT_VERSION } from '../reporters/report.js';
import { reportProblems } from '../reporters/report-schema.js';
import { UsageError } from '../spec/verdicts.js';
import { parseFlags } from './flags.js';

export const COMPARE_USAGE = `Usage: notes-conformance compare OLD.json NEW.json

What changed between two runs' JSON reports (--json FILE), rule by rule: the rules newly failing,
those no longer judged (coverage lost), newly passing, newly judged, and every other change, with
what differs in how the runs were made (target, profile, tier, kit).

Exit status: 0 nothing got worse, 1 a rule fails or errors that did not, or a rule once judged is
skipped or gone, 2 a file is not a report of this kit's format (spec/report.schema.json).

  -h, --help   this text`;

/** notes-conformance compare OLD.json NEW.json: for a pull request's CI, against the main branch's run. */
export function compareCommand(argv: string[], out: (text: string) => void): number {
  const values = parseFlags(
    argv.filter((a) => a.startsWith('-')),
    { help: { type: 'boolean', short: 'h' } },
    'compare',
  );
  if (values.help) {
    out(`${COMPARE_USAGE}\n`);
    return 0;
  }
  const files = argv.filter((a) => !a.startsWith('-'));
  if (files.length !== 2)
    throw new UsageError(
      `compare takes two JSON reports, OLD and NEW (got ${files.length}; see notes-conformance compare --help)`,
    );
  const [before, after] = files.map(readReport) as [ConformanceReport, ConformanceReport];
  const comparison = compareReports(before, after);
  out(renderComparison(comparison, { before: files[0]!, after: files[1]! }));
  return isWorse(comparison) ? 1 : 0;
}

function readReport(path: string): ConformanceReport {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new UsageError(`compare: cannot read ${path}: ${(error as Error).message.split('\n')[0]}`);
  }
  const version = (value as { format_version?: unknown } | null)?.format_version;
  if (version !== REPORT_FORMAT_VERSION) {
    const found =
      version === undefined
        ? 'a report without a format_version (from a kit before format 1), or no report'
        : `report format ${JSON.stringify(version)}`;
    throw new UsageError(`compare: ${path} is ${found}; this kit reads format ${REPORT_FORMAT_VERSION}`);
  }
  const problems = reportProblems(value);
  if (problems.length > 0)
    throw new UsageError(
      `compare: ${path} is not a report of spec/report.schema.json:\n  ${problems.slice(0, 10).join('\n  ')}`,
    );
  return value as ConformanceReport;
}
