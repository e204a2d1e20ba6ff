/**
 * A shell command that sends one request again exactly as the kit sent it (for the reports'
 * "repro" of a failing check): the real URL, every header the kit set, the credential as it was
 * sent and the whole body. Credentials the run was given are never written: each becomes the
 * environment variable a reader sets (`"${NOTES_TOKEN:?}"`, which stops with a plain message
 * when unset); anything else, such as a deliberately invalid token, stays as the literal sent.
 */

import type { PlannedRequest } from '../../spec/replay.js';

export type { PlannedRequest } from '../../spec/replay.js';

/** A credential of the run and the variable that stands for it in a repro. */
export interface NamedSecret {
  readonly value: string;
  readonly variable: string;
}

export interface SentRequest {
  readonly method: string;
  /** The absolute URL the request went to. */
  readonly url: string;
  /** The headers as sent (lower-case names), credentials in the clear: they are replaced here. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string | Uint8Array;
}

const DISPLAY_NAMES: Readonly<Record<string, string>> = {
  accept: 'Accept',
  authorization: 'Authorization',
  'content-type': 'Content-Type',
};
/** curl asks "Expect: 100-continue" before bodies over 1 MiB; the kit never does. */
const EXPECT_THRESHOLD = 1024 * 1024;

export interface CurlOptions {
  /** Print the answer's body only (no status line and headers), for a step whose answer is read. */
  readonly bodyOnly?: boolean;
  /** What follows the command on its line, before any here-document: a pipe (`| cmd`) or a redirection. */
  readonly after?: string;
}

/** How a variable stands in a plan: NUL-delimited, which no request of the kit carries around a name. */
export const marker = (variable: string): string => `\u0000${variable}\u0000`;

/** A marker in a planned text. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: a NUL delimits a marker: no request text has one around a name
const MARKED = () => /\u0000([A-Z][A-Z0-9_]*)\u0000/g;

/** Puts each marker's value back (unknown markers stay, for the caller to refuse). */
export function filledIn(text: string, values: Readonly<Record<string, string>>): string {
  return text.replace(MARKED(), (whole, name: string) => values[name] ?? whole);
}

/** The variables a planned text still names once filled in: what the replay cannot supply. */
export function unfilled(text: string): string[] {
  return [...text.matchAll(MARKED())].map((m) => m[1]!);
}

/** A planned text for a reader: each marker as the script's variable ($NOTE_1). */
export function asVariables(text: string): string {
  return text.replace(MARKED(), (_, name: string) => `$${name}`);
}

export function plannedRequest(request: SentRequest, base: string, variables: readonly NamedSecret[]): PlannedRequest {
  const usable = variables.filter((v) => v.value.length >= 4).sort((a, b) => b.value.length - a.value.length);
  const mark = (text: string) => {
    let out = text;
    for (const v of usable) out = out.split(v.value).join(marker(v.variable));
    return out;
  };
  const root = base.replace(/\/$/, '');
  const path = request.url.startsWith(root) ? request.url.slice(root.length) : new URL(request.url).pathname;
  const authorization = request.headers.authorization;
  const contentType = request.headers['content-type'];
  const out: { -readonly [K in keyof PlannedRequest]: PlannedRequest[K] } = {
    method: request.method,
    path: mark(path),
  };
  if (authorization !== undefined) out.authorization = mark(authorization);
  if (request.body === undefined) return out;
  out.contentType = contentType ?? null;
  const bytes = typeof request.body === 'string' ? Buffer.from(request.body, 'utf8') : Buffer.from(request.body);
  const text = bytes.toString('utf8');
  if (Buffer.from(text, 'utf8').equals(bytes)) out.body = mark(text);
  else out.bodyBase64 = bytes.toString('base64');
  return out;
}

export function curlRepro(request: SentRequest, secrets: readonly NamedSecret[], options: CurlOptions = {}): string {
  const word = (text: string) => shellWord(text, secrets);
  const args = [options.bodyOnly ? 'curl -sS' : 'curl -sS -i'];
  if (request.method === 'HEAD') args.push('--head');
  else if (request.method !== 'GET') args.push(`-X ${request.method}`);
  args.push(word(request.url));
  for (const [name, value] of Object.entries(request.headers))
    args.push(`-H ${word(`${DISPLAY_NAMES[name] ?? name}: ${value}`)}`);
  const pipe = options.after ? ` ${options.after}` : '';
  if (request.body === undefined) return args.join(' \\\n  ') + pipe;
  const bytes = typeof request.body === 'string' ? Buffer.from(request.body, 'utf8') : Buffer.from(request.body);
  // Without these curl would add a form content type, or wait for a 100-continue before large bodies.
  if (!('content-type' in request.headers)) args.push(`-H 'Content-Type:'`);
  if (bytes.length > EXPECT_THRESHOLD) args.push(`-H 'Expect:'`);
  args.push('--data-binary @-');
  const curl = args.join(' \\\n  ') + pipe;
  const text = bytes.toString('utf8');
  const hasSecret = secrets.some((s) => s.value.length >= 4 && text.includes(s.value));
  if (hasSecret) {
    // A credential inside the body: printf (a shell builtin, so no argument size limit) with the
    // variable; never base64, which would carry the credential itself.
    return `printf '%s' ${word(text)} | ${curl}`;
  }
  const delimiter = hereDocDelimiter(text);
  if (!isPlainText(text, bytes)) {
    return `base64 -d <<'${delimiter}' | ${curl}\n${bytes.toString('base64').replace(/.{76}/g, '$&\n').replace(/\n$/, '')}\n${delimiter}`;
  }
  // A here-document ends with a newline the kit did not send: head passes exactly the body's bytes.
  return `head -c ${bytes.length} <<'${delimiter}' | ${curl}\n${text}\n${delimiter}`;
}

/**
 * One shell word for the text: single-quoted literal runs, and each credential as its variable in
 * double quotes (`'Authorization: Bearer '"${NOTES_TOKEN:?}"`).
 */
export function shellWord(text: string, secrets: readonly NamedSecret[]): string {
  const usable = secrets.filter((s) => s.value.length >= 4 && text.includes(s.value));
  // Most words (the URL, every header but the credential's) hold none: one quoted literal, not a
  // look for each credential at every character (a tenth of a worker's repro time).
  if (usable.length === 0) return singleQuoted(text);
  usable.sort((a, b) => b.value.length - a.value.length);
  const parts: string[] = [];
  let literal = '';
  for (let i = 0; i < text.length; ) {
    const secret = usable.find((s) => text.startsWith(s.value, i));
    if (secret) {
      if (literal) parts.push(singleQuoted(literal));
      literal = '';
      parts.push(`"\${${secret.variable}:?}"`);
      i += secret.value.length;
    } else {
      literal += text[i];
      i++;
    }
  }
  if (literal || parts.length === 0) parts.push(singleQuoted(literal));
  return parts.join('');
}

function singleQuoted(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/**
 * Text a here-document carries unchanged and a reader can copy: valid UTF-8, no NUL, no CR or
 * other controls (which copying from a page may lose or a terminal may act on).
 */
function isPlainText(text: string, bytes: Buffer): boolean {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the controls are what is looked for
  return Buffer.from(text, 'utf8').equals(bytes) && !/[\u0000-\u0008\u000b-\u001f\u007f]/.test(text);
}

function hereDocDelimiter(text: string): string {
  const lines = new Set(text.split('\n'));
  let delimiter = 'NOTES_BODY';
  for (let n = 2; lines.has(delimiter); n++) delimiter = `NOTES_BODY_${n}`;
  return delimiter;
}
