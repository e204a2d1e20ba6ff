import { describe, expect, it } from 'vitest';
import { reportSchema } from '../../reporters/report-schema.js';
import { createAjv } from '../../spec/ajv.js';
import { profileSchema } from '../../spec/profile.js';
import { catalogueSchema } from '../../spec/rules.js';
import { createSchemaRegistry } from '../../spec/schemas.js';

/**
 * The project's own JSON Schemas are compiled at run time without the meta-schema check (spec/ajv.ts
 * checkSchemas: a tenth of a second a process): here each is checked against JSON Schema 2020-12.
 */
describe("the project's own schemas", () => {
  const ajv = createAjv();

  it.each([
    ['the profile schema (spec/profile.schema.json)', profileSchema()],
    ['the rule catalogue schema (spec/rules.ts)', catalogueSchema],
    ['the JSON report schema (spec/report.schema.json)', reportSchema()],
  ])('%s is valid JSON Schema 2020-12', (_what, schema) => {
    expect(ajv.validateSchema(schema), JSON.stringify(ajv.errors)).toBe(true);
  });

  it('a schema the meta-schema refuses is refused when checked, and compiled when not (the check is what catches it)', () => {
    const broken = { type: 'object', properties: { a: { type: 'string', minLength: -1 } } };
    expect(() => createAjv().compile(broken)).toThrow(/schema is invalid/);
    expect(() => createAjv({ checkSchemas: false }).compile(broken)).not.toThrow();
  });

  it("openapi.yaml's component schemas pass the meta-schema check when compiled at start", () => {
    expect(() => createSchemaRegistry()).not.toThrow();
  });
});
