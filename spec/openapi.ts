import { specFile } from './paths.js';
import { readYamlFile } from './yaml-file.js';

export interface OperationInfo {
  readonly operationId: string;
  readonly method: string;
  readonly path: string;
  /** 'endpoint' (the path itself is not shown), 'shapes' (bodies not shown) or undefined. */
  readonly notShown?: string;
  readonly profileField?: string;
  /** Not in the document: served by the reference fake at a profile-chosen endpoint (x-fake-extension). */
  readonly fakeExtension?: boolean;
}

export type OpenApiDocument = {
  paths: Record<string, Record<string, unknown>>;
  components: { schemas: Record<string, unknown> };
};

const METHODS = ['get', 'put', 'post', 'patch', 'delete'] as const;

let cachedDoc: OpenApiDocument | undefined;

export function loadOpenApi(): OpenApiDocument {
  cachedDoc ??= readYamlFile(specFile('openapi.yaml')) as OpenApiDocument;
  return cachedDoc;
}

/** Every operation of openapi.yaml, in document order. */
export function listOperations(doc: OpenApiDocument = loadOpenApi()): OperationInfo[] {
  const ops: OperationInfo[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method] as Record<string, unknown> | undefined;
      if (!op) continue;
      ops.push({
        operationId: op.operationId as string,
        method: method.toUpperCase(),
        path,
        ...(op['x-not-shown'] ? { notShown: op['x-not-shown'] as string } : {}),
        ...(op['x-profile-field'] ? { profileField: op['x-profile-field'] as string } : {}),
        ...(op['x-fake-extension'] === true ? { fakeExtension: true } : {}),
      });
    }
  }
  return ops;
}
