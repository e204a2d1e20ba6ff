import type { ValidateFunction } from 'ajv';
import { createAjv, describeAjvError } from './ajv.js';
import { type OpenApiDocument, loadOpenApi } from './openapi.js';

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

/** Compiles every component schema of openapi.yaml in ajv strict mode (throws on any schema error). */
export function createSchemaRegistry(doc: OpenApiDocument = loadOpenApi()): SchemaRegistry {
  const components = doc.components.schemas as Record<string, Json>;
  const lenient = createAjv();
  const strict = createAjv();
  for (const [name, schema] of Object.entries(components)) {
    lenient.addSchema({ ...(rewriteRefs(schema) as object), $id: BASE + name });
    strict.addSchema({ ...(closeObjects(rewriteRefs(schema), false, components) as object), $id: BASE + name });
  }
  const compiled = new Map<string, ValidateFunction>();
  const compile = (name: string, isStrict: boolean): ValidateFunction => {
    const key = `${isStrict ? 's' : 'l'}:${name}`;
    let fn = compiled.get(key);
    if (!fn) {
      if (!(name in components)) throw new Error(`no schema named ${name} in openapi.yaml`);
      fn = isStrict
        ? strict.compile(isObjectSchema(components[name] as Record<string, Json>, components) ? { type: 'object', $ref: BASE + name, unevaluatedProperties: false } : { $ref: BASE + name })
        : lenient.compile({ $ref: BASE + name });
      compiled.set(key, fn);
    }
    return fn;
  };
  // Compile everything now so a broken schema fails at start, not in the middle of a run.
  for (const name of Object.keys(components)) {
    compile(name, false);
    compile(name, true);
  }
  const responseSchemas = collectResponseSchemas(doc);
  return {
    names: Object.keys(components),
    validate(name, data, options = {}) {
      const fn = compile(name, options.strict === true);
      return fn(data) ? [] : (fn.errors ?? []).map((e) => describeAjvError(e, data));
    },
    responseSchemaOf: (operationId) => responseSchemas.get(operationId),
  };
}

function rewriteRefs(node: Json): Json {
  if (Array.isArray(node)) return node.map(rewriteRefs);
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, Json> = {};
  for (const [key, value] of Object.entries(node)) {
    out[key] = key === '$ref' && typeof value === 'string' && value.startsWith(LOCAL_REF)
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

function collectResponseSchemas(doc: OpenApiDocument): Map<string, string> {
  const map = new Map<string, string>();
  for (const item of Object.values(doc.paths)) {
    for (const op of Object.values(item)) {
      if (!op || typeof op !== 'object' || !('operationId' in op)) continue;
      const o = op as { operationId: string; responses?: Record<string, { content?: Record<string, { schema?: { $ref?: string } }> }> };
      const ref = o.responses?.['200']?.content?.['application/json']?.schema?.$ref;
      if (ref?.startsWith(LOCAL_REF)) map.set(o.operationId, ref.slice(LOCAL_REF.length));
    }
  }
  return map;
}
