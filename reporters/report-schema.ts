import { readFileSync } from 'node:fs';
import { createAjv, describeAjvError } from '../spec/ajv.js';
import { specFile } from '../spec/paths.js';

let validator: ReturnType<ReturnType<typeof createAjv>['compile']> | undefined;

/** The JSON report's schema (spec/report.schema.json). */
export function reportSchema(): Record<string, unknown> {
  return JSON.parse(readFileSync(specFile('report.schema.json'), 'utf8')) as Record<string, unknown>;
}

/**
 * What keeps a value from being a JSON report of this kit's format, one line a problem (none: it
 * is one). The schema is checked against the meta-schema by test/spec/own-schemas.test.ts.
 */
export function reportProblems(value: unknown): string[] {
  validator ??= createAjv({ checkSchemas: false, verbose: true }).compile(reportSchema());
  return validator(value) ? [] : (validator.errors ?? []).map((e) => describeAjvError(e, value));
}
