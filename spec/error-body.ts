import type { Profile, RefusalKind } from './profile.js';

/** The refusal body the profile declares (error_body): where the kind and the message stand. */
export type ErrorBodyShape = NonNullable<Profile['error_body']>;

/**
 * What a refusal body of `kind` lacks of the shape the profile declares: a string kind at
 * kind_pointer (the declared code, when the profile names one for this kind) and a message at
 * message_pointer. Empty when it has all of it. Only what is declared is judged (section 7 shows
 * no error body; the profile says what the target promises).
 */
export function errorBodyProblems(json: unknown, shape: ErrorBodyShape, kind: RefusalKind): string[] {
  const problems: string[] = [];
  if (shape.kind_pointer !== undefined) {
    const code = pointer(json, shape.kind_pointer);
    const expected = kind === 'quota_exceeded' ? undefined : shape.kinds?.[kind];
    if (typeof code !== 'string') problems.push(`no error kind at ${shape.kind_pointer} (${JSON.stringify(code)})`);
    else if (expected !== undefined && code !== expected)
      problems.push(
        `the error kind at ${shape.kind_pointer} is ${JSON.stringify(code)}; the profile declares ${expected} for ${kind}`,
      );
  }
  if (shape.message_pointer !== undefined && !isMessage(pointer(json, shape.message_pointer)))
    problems.push(`no message at ${shape.message_pointer} (a string, or a list of error entries)`);
  return problems;
}

/**
 * A human-readable message as servers give one: a string with words, or a non-empty list of error
 * entries (strings, or objects such as FastAPI's {loc, msg, type} validation entries).
 */
function isMessage(value: unknown): boolean {
  if (typeof value === 'string') return /\S/.test(value);
  if (!Array.isArray(value) || value.length === 0) return false;
  return value.every(
    (entry) =>
      (typeof entry === 'string' && /\S/.test(entry)) ||
      (entry !== null && typeof entry === 'object' && !Array.isArray(entry) && Object.keys(entry).length > 0),
  );
}

/** RFC 6901: the value at a JSON pointer, or undefined. */
function pointer(value: unknown, path: string): unknown {
  let node = value;
  for (const raw of path.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}
