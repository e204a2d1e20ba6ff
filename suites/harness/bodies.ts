import type { operations } from '../../spec/openapi-types.js';

/**
 * Response bodies typed from the OpenAPI description (spec/openapi-types.ts, generated from
 * openapi.yaml): a check that reads a body reads the documented fields with their documented
 * types. Operations whose shapes the document does not show (restore, remove, the fixture API)
 * get a plain JSON object.
 */
export type JsonObject = { readonly [key: string]: unknown };

type SuccessJson<O> = O extends { responses: { 200: { content: { 'application/json': infer B } } } } ? B : JsonObject;

/** The 200 body of an operation of openapi.yaml, by operationId. */
export type OkBody<Op extends string> = Op extends keyof operations
  ? SuccessJson<operations[Op]> & JsonObject
  : JsonObject;
