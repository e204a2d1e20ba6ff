/**
 * Secrets (the run's tokens, and tokens learned during it) never leave the run: not in evidence,
 * assertion messages, terminal output nor any report. A target may hand a token back in any
 * form it likes, so each secret is also removed as it looks percent-encoded, form-encoded and
 * escaped inside a JSON string.
 */
export const REDACTED = '***';

/** Shorter values are not treated as secrets: redacting "abc" would mangle ordinary text. */
const MIN_SECRET_LENGTH = 4;

/**
 * The forms of each secret met so far: every exchange is redacted with every secret, and a run
 * knows a handful of secrets but sends thousands of requests. Bounded all the same.
 */
const formsOf = new Map<string, readonly string[]>();
const MAX_CACHED_SECRETS = 1000;

export function secretForms(secret: string): readonly string[] {
  if (secret.length < MIN_SECRET_LENGTH) return [];
  let forms = formsOf.get(secret);
  if (forms === undefined) {
    if (formsOf.size >= MAX_CACHED_SECRETS) formsOf.clear();
    forms = formsFor(secret);
    formsOf.set(secret, forms);
  }
  return forms;
}

function formsFor(secret: string): string[] {
  const forms = new Set([
    secret,
    encodeURIComponent(secret),
    new URLSearchParams({ s: secret }).toString().slice(2),
    JSON.stringify(secret).slice(1, -1),
  ]);
  // Longest first, so that a form containing another is removed whole.
  return [...forms].sort((a, b) => b.length - a.length);
}

export function redactText(text: string, secrets: Iterable<string>): string {
  let out = text;
  for (const secret of secrets)
    for (const form of secretForms(secret)) if (out.includes(form)) out = out.split(form).join(REDACTED);
  return out;
}

/** Every string of a JSON-like value (keys included), redacted: the final pass over a report. */
export function redactDeep<T>(value: T, secrets: readonly string[]): T {
  const live = secrets.filter((s) => s.length >= MIN_SECRET_LENGTH);
  if (live.length === 0) return value;
  const walk = (node: unknown): unknown => {
    if (typeof node === 'string') return redactText(node, live);
    if (Array.isArray(node)) return node.map(walk);
    if (node !== null && typeof node === 'object') {
      return Object.fromEntries(Object.entries(node).map(([k, v]) => [redactText(k, live), walk(v)]));
    }
    return node;
  };
  return walk(value) as T;
}
