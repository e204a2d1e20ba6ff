import { closestKnown } from '../spec/did-you-mean.js';
import { asOfProblem, notInForce, revisionOn } from '../spec/revisions.js';
import { loadRules, ruleArea, ruleSelectors, selectedByOnly } from '../spec/rules.js';
import { UsageError } from '../spec/verdicts.js';
import { parseFlags } from './flags.js';

export const RULES_USAGE = `Usage: notes-conformance rules [--area A] [--as-of DATE] [--json]

Lists the rule catalogue (spec/rules.yaml): each rule id with its level, the date it entered the API
and the API document's words it stands on. The ids are what --only takes, and what every report names.

  --area A       only the rules of an area (notes, collections, ...) or of a dotted id prefix (notes.create)
  --as-of DATE   only the rules in force on DATE (YYYY-MM-DD), by the revisions of the document's part 9
  --json         one JSON array: id, area, level, since, section, statement, quote and the profile field
  -h, --help     this text

Levels: documented (a failure fails the run), profile (judged by what the profile declares) and
advisory (a convention the document implies: warned, never failed).`;

/** notes-conformance rules: the catalogue for people (id, level, quote) or for tools (--json). */
export function rulesCommand(argv: string[], out: (text: string) => void): number {
  const values = parseFlags(
    argv,
    {
      area: { type: 'string', multiple: true },
      'as-of': { type: 'string' },
      json: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    'rules',
  );
  if (values.help) {
    out(`${RULES_USAGE}\n`);
    return 0;
  }
  const all = loadRules();
  const areas = [...new Set(all.map((r) => ruleArea(r.id)))].sort();
  const wanted = values.area ?? [];
  for (const area of wanted) {
    if (!all.some((r) => selectedByOnly(r.id, [area]))) {
      const near = closestKnown(area, ruleSelectors(all));
      throw new UsageError(
        `rules: no rule in area ${area}${near ? ` (did you mean ${near}?)` : ''}; the areas are ${areas.join(', ')}`,
      );
    }
  }
  const asOf = values['as-of'];
  const wrong = asOf === undefined ? undefined : asOfProblem('--as-of', asOf);
  if (wrong) throw new UsageError(`rules: ${wrong}`);
  const rules = all.filter((r) => selectedByOnly(r.id, wanted) && notInForce(r, asOf) === undefined);
  if (values.json) {
    const entries = rules.map((r) => ({
      id: r.id,
      area: ruleArea(r.id),
      level: r.level,
      since: r.since,
      section: r.section,
      statement: r.statement,
      quote: [...r.quote],
      ...(r.profile ? { profile_field: r.profile } : {}),
    }));
    out(`${JSON.stringify(entries, null, 2)}\n`);
    return 0;
  }
  const idWidth = Math.max(...rules.map((r) => r.id.length));
  const lines = rules.map(
    (r) =>
      `${r.id.padEnd(idWidth)}  ${r.level.padEnd(10)}  ${r.since}  ${r.quote.map((q) => `"${oneLine(q)}"`).join(' / ')}`,
  );
  const count = rules.length === 1 ? '1 rule' : `${rules.length} rules`;
  const inForce = asOf ? ` in force on ${asOf} (API revision ${revisionOn(asOf)})` : '';
  const where = `${wanted.length > 0 ? ` in ${wanted.join(', ')}` : ''}${inForce}`;
  out(`${lines.map((l) => `${l}\n`).join('')}${count}${where}\n`);
  return 0;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
