import { vi } from 'vitest';
import type * as Run from '../kit/run.js';
import { renderJson } from '../reporters/render-json.js';
import { reportProblems } from '../reporters/report-schema.js';

/**
 * The proofs' setup (vitest.config.ts): every report a proof's in-process run makes is held to
 * spec/report.schema.json as its JSON file would read, so a field the report gains without the
 * schema, or a schema that drifts from the report, fails the proof that made it. Reports written
 * by the CLI in a child process are checked where a proof reads them (test/report-file.ts).
 */
vi.mock('../kit/run.js', async (importOriginal) => {
  const original = await importOriginal<typeof Run>();
  return {
    ...original,
    runKit: async (...args: Parameters<typeof original.runKit>) => {
      const result = await original.runKit(...args);
      const problems = reportProblems(JSON.parse(renderJson(result.report)));
      if (problems.length > 0)
        throw new Error(`the run's report does not match spec/report.schema.json:\n  ${problems.join('\n  ')}`);
      return result;
    },
  };
});
