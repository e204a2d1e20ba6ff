import { appendFileSync } from 'node:fs';
import type { Exchange } from './exchange.js';
import { harLines, harPath } from './run-folder.js';

/**
 * The run's recording as HAR 1.2 (`--har FILE`), which a browser's developer tools open (Network
 * panel, "Import HAR"). Every process of the run (the run command's probe and sweep, each vitest
 * worker) appends its exchanges to a file of its own in the run directory as they are answered, so
 * nothing is held in memory; the run command orders them by time and writes the archive, redacted
 * with every secret known by then, before the run directory goes.
 */

/** A body kept in the recording is cut here: a hostile 8 MiB answer must not become 8 MiB per entry. */
const HAR_BODY_CHARS = 16 * 1024;

/** What the client knows of a request besides its Exchange. */
export interface SentFacts {
  /** The absolute URL, credentials already redacted. */
  readonly url: string;
  /** Epoch ms at which the request was sent. */
  readonly startedAt: number;
  /** The request body as sent (redacted), whole. */
  readonly body?: string;
}

export interface HarHeader {
  name: string;
  value: string;
}

export interface HarEntry {
  startedDateTime: string;
  time: number;
  request: {
    method: string;
    url: string;
    httpVersion: string;
    cookies: [];
    headers: HarHeader[];
    queryString: HarHeader[];
    postData?: { mimeType: string; text: string };
    headersSize: -1;
    bodySize: number;
  };
  response: {
    status: number;
    statusText: string;
    httpVersion: string;
    cookies: [];
    headers: HarHeader[];
    content: { size: number; mimeType: string; text: string; comment?: string };
    redirectURL: string;
    headersSize: -1;
    bodySize: number;
  };
  cache: Record<string, never>;
  timings: { send: number; wait: number; receive: number };
  /** The exchange's id, as the reports' evidence names it. */
  _id: string;
  comment?: string;
}

/** One exchange as a HAR entry. */
export function harEntry(x: Exchange, sent: SentFacts, id: string): HarEntry {
  const url = new URL(sent.url);
  const requestBody = sent.body ?? x.requestBody;
  const text = cut(x.text);
  return {
    startedDateTime: new Date(sent.startedAt).toISOString(),
    time: x.durationMs,
    request: {
      method: x.method,
      url: url.href,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: headers(x.requestHeaders),
      queryString: [...url.searchParams].map(([name, value]) => ({ name, value })),
      ...(requestBody === undefined
        ? {}
        : { postData: { mimeType: x.requestHeaders['content-type'] ?? '', text: cut(requestBody) } }),
      headersSize: -1,
      bodySize: requestBody === undefined ? 0 : Buffer.byteLength(requestBody),
    },
    response: {
      status: x.status,
      statusText: '',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: headers(x.headers),
      content: {
        size: Buffer.byteLength(x.text),
        mimeType: x.headers['content-type'] ?? '',
        text,
        ...(text.length < x.text.length ? { comment: `cut to ${HAR_BODY_CHARS} of ${x.text.length} characters` } : {}),
      },
      redirectURL: x.headers.location ?? '',
      headersSize: -1,
      bodySize: Buffer.byteLength(x.text),
    },
    cache: {},
    timings: { send: 0, wait: x.durationMs, receive: 0 },
    _id: id,
  };
}

/** Appends one process's entries to its file in the run directory (one JSON entry a line). */
export function harWriter(runDir: string, name: string): (entry: HarEntry) => void {
  const file = harPath(runDir, name);
  return (entry) => appendFileSync(file, `${JSON.stringify(entry)}\n`, { mode: 0o600 });
}

/** Every entry the run's processes recorded, in the order they were sent. */
export function recordedHarEntries(runDir: string): HarEntry[] {
  const entries: HarEntry[] = [];
  for (const line of harLines(runDir)) {
    try {
      entries.push(JSON.parse(line) as HarEntry);
    } catch {
      // a line cut short by a worker stopped mid-write (an interrupted run)
    }
  }
  return entries.sort((a, b) => a.startedDateTime.localeCompare(b.startedDateTime));
}

/** The HAR 1.2 document of these entries. */
export function harDocument(entries: readonly HarEntry[], version: string): unknown {
  return {
    log: {
      version: '1.2',
      creator: { name: 'notes-conformance', version },
      pages: [],
      entries,
    },
  };
}

function headers(record: Readonly<Record<string, string>>): HarHeader[] {
  return Object.entries(record).map(([name, value]) => ({ name, value }));
}

function cut(text: string): string {
  return text.length > HAR_BODY_CHARS ? text.slice(0, HAR_BODY_CHARS) : text;
}
