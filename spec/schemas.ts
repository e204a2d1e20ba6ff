import type { ValidateFunction } from 'ajv';
import { AJV_OPTIONS, createAjv, describeAjvError } from './ajv.js';
import { codeOf, keptValidator } from './kept-validators.js';
import { loadOpenApi, type OpenApiDocument } from './openapi.js';

const BASE = 'https://notes-conformance.dev/schemas/';
const LOCAL_REF = '#/components/schemas/';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export interface SchemaRegistry {
  /** Component schema names of openapi.yaml. */
  readonly names: readonly string[];
  /** Problems of `data` against a component schema; empty when valid. Strict refuses unknown fields. */
  validate(name: string, data: unknown, options?: { strict?: boolean }): string[];
  /** The component schema named by an operation's 200 response, if it has a JSON body. */
  responseSchemaOf(operationId: string): string | undefined;
}

export interface SchemaRegistryOptions {
  /**
   * 'start' (the default) compiles every schema at once and checks each against the JSON Schema
   * meta-schema, so a broken schema fails at start (the spec tests prove openapi.yaml this way).
   * 'use' compiles a schema when first used: the kit's worker and sweep, which each use a few of
   * them, start in a fraction of the time (compiling all took about a second per process).
   */
  compile?: 'start' | 'use';
}

let shared: SchemaRegistry | undefined;

/**
 * The process's registry of openapi.yaml's schemas, compiled on use and kept: a worker serves many
 * runs (every row of the fault matrix) and the run command sweeps after each, and each would
 * otherwise compile the schemas it uses again.
 */
export function sharedSchemaRegistry(): SchemaRegistry {
  shared ??= createSchemaRegistry(undefined, { compile: 'use' });
  return shared;
}

/** Compiles the component schemas of openapi.yaml in ajv strict mode (throws on any schema error). */
export function createSchemaRegistry(
  doc: OpenApiDocument = loadOpenApi(),
  options: SchemaRegistryOptions = {},
): SchemaRegistry {
  const atStart = options.compile !== 'use';
  const components = doc.components.schemas as Record<string, Json>;
  // What each instance holds, by $id: openapi.yaml's schemas with their refs made absolute, and
  // for the strict one every object closed at its use sites.
  const held = {
    lenient: Object.entries(components).map(([name, schema]) => ({
      ...(rewriteRefs(schema) as object),
      $id: BASE + name,
    })),
    strict: Object.entries(components).map(([name, schema]) => ({
      ...(closeObjects(rewriteRefs(schema), false, components) as object),
      $id: BASE + name,
    })),
  };
  let instances: { lenient: ReturnType<typeof createAjv>; strict: ReturnType<typeof createAjv> } | undefined;
  const ajvs = () => {
    if (instances) return instances;
    // Checked against the meta-schema at 'start' (the spec tests); on use, trusted as they proved them.
    const lenient = createAjv({ checkSchemas: atStart, keepCode: !atStart });
    const strict = createAjv({ checkSchemas: atStart, keepCode: !atStart });
    // The meta-schema check is what 'start' is for; used on demand, the schemas were proved by the spec tests.
    for (const schema of held.lenient) lenient.addSchema(schema, undefined, undefined, atStart);
    for (const schema of held.strict) strict.addSchema(schema, undefined, undefined, atStart);
    instances = { lenient, strict };
    return instances;
  };
  let digests: { lenient: string; strict: string } | undefined;
  const digestOf = (isStrict: boolean) => {
    digests ??= {
      lenient: JSON.stringify([AJV_OPTIONS, held.lenient]),
      strict: JSON.stringify([AJV_OPTIONS, held.strict]),
    };
    return isStrict ? digests.strict : digests.lenient;
  };
  const compiled = new Map<string, ValidateFunction>();
  const compile = (name: string, isStrict: boolean): ValidateFunction => {
    const key = `${isStrict ? 's' : 'l'}:${name}`;
    let fn = compiled.get(key);
    if (!fn) {
      if (!(name in components)) throw new Error(`no schema named ${name} in openapi.yaml`);
      const root = isStrict
        ? isObjectSchema(components[name] as Record<string, Json>, components)
          ? { type: 'object', $ref: BASE + name, unevaluatedProperties: false }
          : { $ref: BASE + name }
        : { $ref: BASE + name };
      const fresh = () => {
        const ajv = isStrict ? ajvs().strict : ajvs().lenient;
        const validator = ajv.compile(root);
        return { fn: validator, code: () => codeOf(ajv, validator) };
      };
      // At start every schema is compiled and checked as it is; on use, compiled code is kept.
      fn = atStart ? fresh().fn : keptValidator(digestOf(isStrict), root, fresh);
      compiled.set(key, fn);
    }
    return fn;
  };
  // Compile everything now so a broken schema fails at start, not in the middle of a run.
  if (atStart) {
    for (const name of Object.keys(components)) {
      compile(name, false);
      compile(name, true);
    }
  }
  const responseSchemas = collectResponseSchemas(doc);
  return {
    names: Object.keys(components),
    validate(name, data, options = {}) {
      return validateLinear(compile(name, options.strict === true), data);
    },
    responseSchemaOf: (operationId) => responseSchemas.get(operationId),
  };
}

/**
 * Lists longer than this are validated partly item by item (see validateLinear). It is above
 * every maxItems of openapi.yaml (100 at most), so the envelope check still sees a list too long.
 */
const LARGE_LIST = 1000;
/** Problems reported at most for one body: enough to see what is wrong, and a bound on the work. */
export const MAX_PROBLEMS = 20;

/**
 * Problems of `data`, in time linear in its size. ajv with allErrors over a large array does not
 * end in useful time (a million items), so a body whose top-level lists are long is checked as
 * the envelope with each long list cut to its first LARGE_LIST + 1 items (so maxItems is still
 * judged), then the remaining items one by one, each in the envelope in place of the list,
 * stopping at the first MAX_PROBLEMS problems. Constraints relating items to one another
 * (uniqueItems) are judged on the cut lists only; the document declares none on responses.
 */
function validateLinear(fn: ValidateFunction, data: unknown): string[] {
  const describe = (value: unknown, rewrite?: (path: string) => string) =>
    fn(value)
      ? []
      : (fn.errors ?? [])
          .slice(0, MAX_PROBLEMS)
          .map((e) => describeAjvError(rewrite ? { ...e, instancePath: rewrite(e.instancePath) } : e, data));
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return describe(data);
  const body = data as Record<string, unknown>;
  const long = Object.keys(body).filter(
    (k) => Array.isArray(body[k]) && (body[k] as unknown[]).length > LARGE_LIST + 1,
  );
  if (long.length === 0) return describe(data);
  const cut = (k: string) => (body[k] as unknown[]).slice(0, LARGE_LIST + 1);
  const problems = describe({ ...body, ...Object.fromEntries(long.map((k) => [k, cut(k)])) });
  for (const key of long) {
    const items = body[key] as unknown[];
    const pointer = `/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    const prefix = `${pointer}/0`;
    const others = Object.fromEntries(
      long.filter((k) => k !== key).map((k) => [k, (body[k] as unknown[]).slice(0, 1)]),
    );
    for (let i = LARGE_LIST + 1; i < items.length && problems.length < MAX_PROBLEMS; i++) {
      const at = (path: string) =>
        path === prefix || path.startsWith(`${prefix}/`) ? `${pointer}/${i}${path.slice(prefix.length)}` : path;
      // Problems outside the item belong to the envelope, already reported.
      for (const p of describe({ ...body, ...others, [key]: [items[i]] }, at))
        if (p.startsWith(`${pointer}/${i}`)) problems.push(p);
    }
  }
  return problems.slice(0, MAX_PROBLEMS);
}

function rewriteRefs(node: Json): Json {
  if (Array.isArray(node)) return node.map(rewriteRefs);
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, Json> = {};
  for (const [key, value] of Object.entries(node)) {
    out[key] =
      key === '$ref' && typeof value === 'string' && value.startsWith(LOCAL_REF)
        ? BASE + value.slice(LOCAL_REF.length)
        : rewriteRefs(value);
  }
  return out;
}

/**
 * The strict variant: every schema used as a property value or array item refuses properties
 * no subschema evaluated. Added at use sites, never inside allOf/oneOf members, so composed
 * schemas (NoteCore + trashed_at) still see each other's properties.
 */
function closeObjects(node: Json, atUseSite: boolean, components: Record<string, Json>): Json {
  if (Array.isArray(node) || node === null || typeof node !== 'object') return node;
  const out: Record<string, Json> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'properties' && value && typeof value === 'object' && !Array.isArray(value)) {
      out[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, closeObjects(v, true, components)]));
    } else if (key === 'items') {
      out[key] = closeObjects(value, true, components);
    } else if (key === 'allOf' || key === 'oneOf' || key === 'anyOf') {
      out[key] = (value as Json[]).map((v) => closeObjects(v, false, components));
    } else {
      out[key] = value;
    }
  }
  if (atUseSite && isObjectSchema(out, components)) {
    out.type ??= 'object';
    out.unevaluatedProperties = false;
  }
  return out;
}

function isObjectSchema(schema: Record<string, Json>, components: Record<string, Json>): boolean {
  if (schema.type === 'object' || 'properties' in schema || 'allOf' in schema) return true;
  if (typeof schema.$ref !== 'string') return false;
  const target = components[schema.$ref.slice(BASE.length)];
  return target !== null && typeof target === 'object' && !Array.isArray(target) && isObjectSchema(target, components);
}

/**
 * Response shapes the document lists for endpoints whose path it does not show (so openapi.yaml has
 * no path for them): "the question-about-an-attachment operation (... response fields answer,
 * attachment_id, attachment_kind, page_references array of integer, request_id)".
 */
const UNSHOWN_PATH_RESPONSES: Readonly<Record<string, string>> = {
  askAttachmentQuestion: 'AttachmentQuestionResponse',
};

function collectResponseSchemas(doc: OpenApiDocument): Map<string, string> {
  const map = new Map<string, string>(Object.entries(UNSHOWN_PATH_RESPONSES));
  for (const item of Object.values(doc.paths)) {
    for (const op of Object.values(item)) {
      if (!op || typeof op !== 'object' || !('operationId' in op)) continue;
      const o = op as {
        operationId: string;
        responses?: Record<string, { content?: Record<string, { schema?: { $ref?: string } }> }>;
      };
      const ref = o.responses?.['200']?.content?.['application/json']?.schema?.$ref;
      if (ref?.startsWith(LOCAL_REF)) map.set(o.operationId, ref.slice(LOCAL_REF.length));
    }
  }
  return map;
}
