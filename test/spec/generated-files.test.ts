import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DIFF_FLAGS } from '../../cli/diff-flags.js';
import { FAKE_FLAGS } from '../../cli/fake-flags.js';
import { MATRIX_FLAGS } from '../../cli/matrix-flags.js';
import { PROFILE_INIT_FLAGS } from '../../cli/profile-flags.js';
import { FAULT_NAMES } from '../../fake/faults/catalogue.js';
import { SEAMS } from '../../fake/service/seams.js';
import { type FlagDecl, flagsTable } from '../../kit/flags.js';
import { RUN_FLAGS } from '../../kit/run-flags.js';
import { listOperations } from '../../spec/openapi.js';
import { packageRoot } from '../../spec/paths.js';
import { loadRules, ruleArea } from '../../spec/rules.js';
import { documentedPages } from './doc-pages.js';

/**
 * Files made from the spec, kept current by this test: it renders each one from its source and
 * compares it with the committed file. `npm run gen` runs this test with -u, which writes them.
 */
const HEADER = (source: string) =>
  `// Generated from ${source} by test/spec/generated-files.test.ts: do not edit; run \`npm run gen\`.\n\n`;

function ruleIds(): string {
  const ids = loadRules()
    .map((r) => r.id)
    .sort();
  return `${HEADER('spec/rules.yaml')}/** Every rule id of the catalogue: a mistyped id in a check, a fault or a scenario does not compile. */
export const RULE_IDS = [
${ids.map((id) => `  '${id}',`).join('\n')}
] as const;

export type RuleId = (typeof RULE_IDS)[number];
`;
}

function operations(): string {
  const api = listOperations().filter((op) => op.path.startsWith('/v2/'));
  const entry = (op: (typeof api)[number]) => {
    const endpoint = op.notShown === 'endpoint' ? `, endpoint: '${op.profileField!.replace(/^endpoints\./, '')}'` : '';
    const line = `  ${op.operationId}: { method: '${op.method}', path: '${op.path}'${endpoint} },`;
    if (line.length <= 120) return line;
    // Biome's layout of an object that does not fit on one line.
    const fields = [`method: '${op.method}'`, `path: '${op.path}'`, ...(endpoint ? [endpoint.slice(2)] : [])];
    return `  ${op.operationId}: {\n${fields.map((f) => `    ${f},`).join('\n')}\n  },`;
  };
  return `${HEADER('spec/openapi.yaml')}/**
 * The API's operations (fixture API aside): operationId -> method and path template. \`endpoint\`
 * names the profile's endpoints key where the document does not show the path (the default here).
 */
export const OPERATIONS = {
${api.map(entry).join('\n')}
} as const;

export type OperationId = keyof typeof OPERATIONS;
`;
}

/**
 * A page's figures between `<!-- figure:NAME -->` and `<!-- /figure -->`, from the catalogues, and
 * each command's flag table between `<!-- flags:NAME -->` markers, from its declarations.
 */
function page(path: string): string {
  const rules = loadRules();
  const words = ['no', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'];
  const figures: Record<string, string> = {
    rules: String(rules.length),
    'documented-rules': String(rules.filter((r) => r.level === 'documented').length),
    'rules-outside-errors': String(rules.filter((r) => ruleArea(r.id) !== 'errors').length),
    faults: String(FAULT_NAMES.length),
    seams: words[SEAMS.length] ?? String(SEAMS.length),
  };
  const tables: Record<string, readonly FlagDecl[]> = {
    run: RUN_FLAGS,
    fake: FAKE_FLAGS,
    'profile-init': PROFILE_INIT_FLAGS,
    diff: DIFF_FLAGS,
    matrix: MATRIX_FLAGS,
  };
  const text = readFileSync(join(packageRoot, path), 'utf8').replace(
    /<!-- flags:([a-z-]+) -->[\s\S]*?<!-- \/flags:\1 -->/g,
    (_, name: string) => {
      const flags = tables[name];
      if (!flags) throw new Error(`${path} names an unknown flag table: ${name}`);
      return `<!-- flags:${name} -->\n${flagsTable(flags)}\n<!-- /flags:${name} -->`;
    },
  );
  return text.replace(/<!-- figure:([a-z-]+) -->[^<]*<!-- \/figure -->/g, (_, name: string) => {
    const value = figures[name];
    if (value === undefined) throw new Error(`${path} names an unknown figure: ${name}`);
    return `<!-- figure:${name} -->${value}<!-- /figure -->`;
  });
}

describe('generated files', () => {
  it('spec/rule-ids.ts is current with spec/rules.yaml', async () => {
    await expect(ruleIds()).toMatchFileSnapshot('../../spec/rule-ids.ts');
  });

  it('spec/operations.ts is current with spec/openapi.yaml', async () => {
    await expect(operations()).toMatchFileSnapshot('../../spec/operations.ts');
  });

  it.each(documentedPages())(
    "%s: its figures are the catalogues' counts, its flag tables the declarations",
    async (path) => {
      await expect(page(path)).toMatchFileSnapshot(`../../${path}`);
    },
  );
});
