/** One answered request, as `notes-conformance fake --log` prints it. Never holds the token. */
export interface RequestLogEntry {
  method: string;
  /** Path with its query string, as the client sent it. */
  url: string;
  status: number;
  ms: number;
  /** The authenticated user's name; absent when the request was refused before authentication. */
  user?: string;
}

/** `GET /v2/notes?limit=5 200 1.2ms user-1`: one line, fields separated by single spaces. */
export function formatLogLine(entry: RequestLogEntry): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what the log line must not carry raw
  const url = entry.url.replace(/[\s\u0000-\u001f\u007f]/g, (c) => encodeURIComponent(c));
  return `${entry.method} ${url} ${entry.status} ${entry.ms.toFixed(1)}ms ${entry.user ?? '-'}`;
}
