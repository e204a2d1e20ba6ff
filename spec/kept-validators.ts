import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { ValidateFunction } from 'ajv';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import standaloneCodeImport from 'ajv/dist/standalone/index.js';
import { AJV_OPTIONS, createAjv } from './ajv.js';
import { keepCached, userCacheDir } from './user-cache.js';

// ajv's standalone module is CommonJS; under NodeNext its default export arrives wrapped.
const standaloneCode = ((standaloneCodeImport as { default?: unknown }).default ?? standaloneCodeImport) as (
  ajv: Ajv2020,
  fn: ValidateFunction,
) => string;

const require = createRequire(import.meta.url);
/** What the kept code was made by: other versions of ajv or its formats make other code. */
const MAKERS = `ajv ${require('ajv/package.json').version}, ajv-formats ${require('ajv-formats/package.json').version}`;

/**
 * Validators compiled once per machine, not once per process: compiling a schema with ajv took
 * about 250 ms of every check worker's CPU (a run has two, the fault matrix one a row), while
 * loading the same validator as ajv's standalone code takes a millisecond or two. The code is
 * kept in the user's cache (spec/user-cache.ts: a directory only this account can reach, as the
 * parsed spec files are), named by a hash of everything it is made of: the schemas the instance
 * holds, the schema compiled, and the versions of ajv and ajv-formats. A cache miss compiles as
 * before and keeps the code; no cache at all just compiles.
 *
 * `instance`: a digest of what the ajv instance holds (the schemas added to it and its options),
 * given by the caller, which knows them.
 */
export function keptValidator(
  instance: string,
  schema: object,
  compile: () => { fn: ValidateFunction; code: () => string },
): ValidateFunction {
  const dir = userCacheDir('validators');
  const name = createHash('sha256')
    .update(`${MAKERS}\n${instance}\n${JSON.stringify(schema)}`)
    .digest('hex');
  const file = dir && join(dir, `${name.slice(0, 40)}.cjs`);
  if (file) {
    const kept = load(file);
    if (kept) return kept;
  }
  const { fn, code } = compile();
  if (file) keepCached(file, code());
  return fn;
}

/**
 * A self-contained schema (the profile's, the rule catalogue's) compiled by its own instance
 * (spec/ajv.ts, without the meta-schema check: test/spec/own-schemas.test.ts makes it), or loaded
 * as kept code.
 */
export function keptSchemaValidator(schema: object, options: { verbose?: boolean } = {}): ValidateFunction {
  return keptValidator(JSON.stringify([AJV_OPTIONS, { verbose: options.verbose ?? false }]), schema, () => {
    const ajv = createAjv({ verbose: options.verbose ?? false, checkSchemas: false, keepCode: true });
    const fn = ajv.compile(schema);
    return { fn, code: () => codeOf(ajv, fn) };
  });
}

/** The standalone code of a validator, for keptValidator (the instance needs `code: { source: true }`). */
export function codeOf(ajv: Ajv2020, fn: ValidateFunction): string {
  return standaloneCode(ajv, fn);
}

/** The validator kept in `file`, or undefined when there is none or it does not load. */
function load(file: string): ValidateFunction | undefined {
  let code: string;
  try {
    code = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  try {
    // Its requires (ajv's runtime helpers, ajv-formats' formats) resolve from this package.
    const module = { exports: {} as unknown };
    new Function('require', 'module', 'exports', code)(require, module, module.exports);
    const fn = module.exports as ValidateFunction;
    return typeof fn === 'function' ? fn : undefined;
  } catch {
    return undefined; // a damaged file: compiled again and rewritten
  }
}
