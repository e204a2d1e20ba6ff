/** One answered request, as `notes-conformance fake --log` prints it. Never holds a token. */
export interface RequestLogEntry {
  /** When the request arrived, as an ISO 8601 instant of the fake's clock. */
  at?: string;
  method: string;
  /** Path with its query string as the client sent it, tokens and access_token values replaced by `***`. */
  url: string;
  status: number;
  ms: number;
  /** The name of the user whose token made the request; absent when it was refused before authentication. */
  user?: string;
  /** That user's id (names need not be unique). */
  userId?: string;
  /** The kind of refusal (`validation`, `not_found`, `payload_too_large`...); absent on a success. */
  refusal?: string;
  /** Names the request sent that unknown_fields: ignore dropped, as `config.extra (body)`. */
  ignored?: readonly string[];
}

/** Query names whose values are secrets wherever they appear. */
const SECRET_NAMES = /^(access_?token|token|api_?key|apikey|key|secret|password|auth|authorization)$/i;

/**
 * The URL with every secret replaced by `***`: the values of access_token and similar query
 * names, and any path segment, query name or query value that is a token the fake knows.
 */
export function redactUrl(url: string, isToken: (value: string) => boolean): string {
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  const redact = (raw: string) => (isToken(decoded(raw)) ? '***' : raw);
  const safePath = path.split('/').map(redact).join('/');
  if (q === -1) return safePath;
  const query = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq === -1) return redact(pair);
      const name = redact(pair.slice(0, eq));
      return SECRET_NAMES.test(decoded(name)) ? `${name}=***` : `${name}=${redact(pair.slice(eq + 1))}`;
    })
    .join('&');
  return `${safePath}?${query}`;
}

/** An ignored name (`x (query)`, `config.x (body)`) with a token the fake knows, whole or inner, as `***`. */
export function redactName(entry: string, isToken: (value: string) => boolean): string {
  const name = entry.slice(0, Math.max(0, entry.lastIndexOf(' (')));
  const dot = name.indexOf('.') + 1;
  if (isToken(name)) return `***${entry.slice(name.length)}`;
  return dot > 0 && isToken(name.slice(dot)) ? `${name.slice(0, dot)}***${entry.slice(name.length)}` : entry;
}

function decoded(raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return raw;
  }
}

/**
 * A value as one field of the line: anything but printable ASCII, and `%` itself, is percent-encoded
 * (UTF-8), so no value (a user name with a newline or spaces, say) can split or forge a line.
 */
export function escapeLogField(value: string): string {
  // '-' stands for "none" in the line, and an empty field would merge two separators.
  if (value === '' || value === '-') return value === '' ? '""' : '%2D';
  return value.replace(/[^\x21-\x24\x26-\x7e]/gu, percentEncode);
}

function percentEncode(c: string): string {
  try {
    return encodeURIComponent(c);
  } catch {
    // A lone surrogate has no UTF-8 form.
    return '%EF%BF%BD';
  }
}

/**
 * `2026-05-01T10:00:00.000Z GET /v2/notes?limit=5 200 1.2ms user-1 9a3c...`, then for a refusal
 * `refused=validation` and for dropped names `ignored=cursor(query),config.x(body)`: one line, fields
 * separated by single spaces, every value escaped.
 */
export function formatLogLine(entry: RequestLogEntry): string {
  const fields = [
    ...(entry.at === undefined ? [] : [escapeLogField(entry.at)]),
    escapeLogField(entry.method),
    escapeLogField(entry.url),
    String(entry.status),
    `${entry.ms.toFixed(1)}ms`,
    entry.user === undefined ? '-' : escapeLogField(entry.user),
    entry.userId === undefined ? '-' : escapeLogField(entry.userId),
    ...(entry.refusal === undefined ? [] : [`refused=${escapeLogField(entry.refusal)}`]),
    ...(entry.ignored === undefined || entry.ignored.length === 0
      ? []
      : [`ignored=${entry.ignored.map((n) => escapeLogField(n.replace(' (', '(')).replace(/,/g, '%2C')).join(',')}`]),
  ];
  return fields.join(' ');
}

export interface LogSink {
  write(line: string): void;
  /** Lines dropped so far because the reader did not keep up. */
  readonly dropped: number;
  /** Reports lines still counted as dropped (at exit). */
  flush(): void;
}

/**
 * The log's output with a bound: while the reader lets more than `maxBacklogBytes` pile up, lines
 * are dropped and counted, and the count is printed once the reader catches up, so a stalled log
 * reader costs the fake a bounded amount of memory instead of all of it.
 */
export function boundedLog(out: (line: string) => void, backlog: () => number, maxBacklogBytes = 1024 * 1024): LogSink {
  let dropped = 0;
  let pending = 0;
  const note = () => {
    if (pending === 0) return;
    out(`log: ${pending} line(s) dropped while the log reader was not keeping up`);
    pending = 0;
  };
  return {
    write(line) {
      if (backlog() > maxBacklogBytes) {
        dropped++;
        pending++;
        return;
      }
      note();
      out(line);
    },
    get dropped() {
      return dropped;
    },
    flush: note,
  };
}
