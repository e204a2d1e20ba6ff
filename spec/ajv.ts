import type { ErrorObject } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsImport from 'ajv-formats';
import { didYouMean } from './did-you-mean.js';

// ajv-formats is CommonJS; under NodeNext its default export arrives wrapped.
const addFormats = addFormatsImport as unknown as (ajv: Ajv2020) => Ajv2020;

export type { ErrorObject };

/** The options every validator is compiled with: part of the name of kept code (spec/kept-validators.ts). */
export const AJV_OPTIONS = { strict: true, allErrors: true, allowUnionTypes: true } as const;

/**
 * A strict JSON Schema 2020-12 validator with the uuid and date-time formats. `verbose` keeps each
 * error's schema, so an unknown field can be told the known one it most likely meant.
 * `checkSchemas: false` compiles without checking each schema against the 2020-12 meta-schema
 * (compiling that costs about 160 ms a process): for the project's own schemas at run time, which
 * the spec tests check (test/spec/own-schemas.test.ts); strict mode still refuses an unknown keyword.
 * `keepCode` keeps each validator's source, so that it can be kept as ajv's standalone code.
 */
export function createAjv(options: { verbose?: boolean; checkSchemas?: boolean; keepCode?: boolean } = {}): Ajv2020 {
  const ajv = new Ajv2020({
    ...AJV_OPTIONS,
    verbose: options.verbose ?? false,
    validateSchema: options.checkSchemas ?? true,
    // Keeps each validator's source, for ajv's standalone code (spec/kept-validators.ts).
    ...(options.keepCode ? { code: { source: true } } : {}),
  });
  addFormats(ajv);
  return ajv;
}

/** One readable line per ajv error: the JSON path, what was expected, and what was found. */
export function describeAjvError(error: ErrorObject, data: unknown): string {
  const path = error.instancePath === '' ? '/' : error.instancePath;
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'additionalProperties': {
      const field = String(params.additionalProperty);
      const known = Object.keys((error.parentSchema as { properties?: object } | undefined)?.properties ?? {});
      return `${joinPointer(error.instancePath, field)}: unknown field${didYouMean(field, known)}`;
    }
    case 'required':
      return `${joinPointer(error.instancePath, String(params.missingProperty))}: required field is missing`;
    case 'enum':
      return `${path}: must be one of ${JSON.stringify(params.allowedValues)} (got ${JSON.stringify(valueAt(data, error.instancePath))})`;
    default:
      return `${path}: ${error.message ?? error.keyword} (got ${preview(valueAt(data, error.instancePath))})`;
  }
}

function joinPointer(base: string, key: string): string {
  return `${base}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
}

function valueAt(data: unknown, pointer: string): unknown {
  if (pointer === '') return data;
  let node: unknown = data;
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

function preview(value: unknown): string {
  const text = JSON.stringify(value);
  if (text === undefined) return 'nothing';
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
