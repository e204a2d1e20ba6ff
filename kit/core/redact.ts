/**
 * Secrets (the run's tokens, and tokens learned during it) never leave the run: not in evidence,
 * assertion messages, terminal output nor any report. A target may hand a token back in any
 * form it likes, so each secret is also removed as it looks percent-encoded (either case of hex),
 * form-encoded, escaped inside a JSON string (also with `\/`, PHP's default), in base64 (standard
 * and URL-safe, alone or inside a longer base64 text), in any letter case, and split across
 * lines (a line break, or an escaped one, between any two of its characters).
 */
export const REDACTED = '***';

/** Shorter values are not treated as secrets: redacting "abc" would mangle ordinary text. */
const MIN_SECRET_LENGTH = 4;
/** Base64 of a shorter secret is too short to tell from ordinary base64 text. */
const MIN_BASE64_SECRET_LENGTH = 8;

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
  const json = JSON.stringify(secret).slice(1, -1);
  const forms = new Set([
    secret,
    encodeURIComponent(secret),
    new URLSearchParams({ s: secret }).toString().slice(2),
    json,
    json.replace(/\//g, '\\/'),
    ...(secret.length >= MIN_BASE64_SECRET_LENGTH ? base64Forms(secret) : []),
  ]);
  // Longest first, so that a form containing another is removed whole.
  return [...forms].sort((a, b) => b.length - a.length);
}

/**
 * The secret's bytes in base64 at each of the three offsets it may start at inside a longer
 * base64 text (`Basic` credentials, a token inside an encoded cursor): only the characters made
 * of the secret's bits alone, which are the same whatever surrounds it.
 */
function base64Forms(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  const out: string[] = [];
  for (let shift = 0; shift < 3; shift++) {
    const text = Buffer.concat([Buffer.alloc(shift), bytes]).toString('base64');
    const inner = text.slice(Math.ceil((8 * shift) / 6), Math.floor((8 * (shift + bytes.length)) / 6));
    out.push(inner, inner.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return out;
}

/** Between two characters of a secret: a line break (with the next line's indent) or an escaped one. */
const BREAK = String.raw`(?:(?:\r?\n|\\r\\n|\\n)[ \t]*)?`;
const compiled = new Map<string, { regex: RegExp; probes: string[] }>();

/** One case-insensitive pattern for every form of every secret, and the lower-case forms to look for first. */
function matcher(secrets: readonly string[]): { regex: RegExp; probes: string[] } | undefined {
  const key = secrets.join('\u0000');
  const known = compiled.get(key);
  if (known) return known;
  const forms = [...new Set(secrets.flatMap(secretForms))].sort((a, b) => b.length - a.length);
  if (forms.length === 0) return undefined;
  const pattern = forms.map((form) => [...form].map(escapeRegex).join(BREAK)).join('|');
  const built = { regex: new RegExp(pattern, 'gi'), probes: forms.map((f) => f.toLowerCase()) };
  if (compiled.size > 64) compiled.clear();
  compiled.set(key, built);
  return built;
}

export function redactText(text: string, secrets: Iterable<string>): string {
  const live = [...secrets].filter((s) => s.length >= MIN_SECRET_LENGTH);
  if (live.length === 0 || text.length < MIN_SECRET_LENGTH) return text;
  const m = matcher(live);
  if (!m) return text;
  // Most texts hold no secret: a plain search (line breaks taken out, one case) says so cheaply.
  const flat = (/[\r\n\\]/.test(text) ? text.replace(/(?:\r?\n|\\r\\n|\\n)[ \t]*/g, '') : text).toLowerCase();
  if (!m.probes.some((p) => flat.includes(p))) return text;
  return text.replace(m.regex, REDACTED);
}

function escapeRegex(char: string): string {
  return char.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
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
