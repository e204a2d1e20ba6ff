import { setTimeout as sleep } from 'node:timers/promises';
import type { EndpointDecl } from '../../spec/profile.js';
import type { Exchange } from '../core/client.js';
import {
  CAPTURE_KEYS,
  type CaptureKey,
  type CapturePattern,
  capturePatterns,
  endpointCandidates,
} from './candidates.js';
import { type Finding, notObserved, observed } from './findings.js';
import type { ProbeNotes } from './probe-data.js';
import { MAX_REQUESTS, type ProbeSession } from './session.js';
import { failedAnswer } from './trials.js';

/**
 * The capture operation: the document names it only in its history ("asynchronous capture
 * operation"), its endpoint and fields are not shown. Each candidate endpoint is sent a capture
 * under each field pattern whole (a target names its fields after one convention), then under each
 * input name alone; an endpoint answering 404 or 405 is not there and is left at once. An accepted
 * capture is confirmed by its effect: a note holding the input's word appears. That note is
 * deleted with the probe's own. Where unknown fields are refused, acceptance confirms the optional
 * names too; where they are ignored, only a timestamp the filed note's created_at shows.
 */

export interface CaptureFindings {
  endpoint: Finding<EndpointDecl>;
  names: Record<CaptureKey, Finding<string>>;
}

/** One try may take the capture, one look-up of its note and that note's delete. */
const TRY_COST = 3;
/** Searches for a filed note (an index may lag, a capture is filed asynchronously): about 6 s in all. */
const SEARCHES = 5;

type Sent = Partial<CapturePattern> & { input: string };

const ACCEPTED_WHERE_REFUSED = 'accepted (200) where the target refuses unknown body fields (see unknown_fields)';

export async function probeCapture(
  s: ProbeSession,
  notes: ProbeNotes,
  unknownRefused: boolean,
): Promise<CaptureFindings> {
  // A whole second before the probe notes' window, which no other data shares.
  const at = notes.start - 60_000;
  const word = s.word();
  const patterns = capturePatterns();
  const alone = [...new Set(patterns.map((p) => p.input))].map((input): Sent => ({ input }));
  const tried: string[] = [];
  for (const endpoint of endpointCandidates('capture')) {
    const where = `${endpoint.method} ${endpoint.path}`;
    for (const names of [...patterns, ...alone] as Sent[]) {
      if (!s.affords(TRY_COST))
        return nothing(`${triedSoFar(tried)}the probe's ${MAX_REQUESTS} requests left no room for more`);
      const body: Record<string, unknown> = { [names.input]: `Probe capture ${word}\n${s.marker}` };
      if (names.instructions) body[names.instructions] = 'File this as a note.';
      if (names.context) body[names.context] = 'Sent by notes-conformance profile init; it deletes the note.';
      if (names.timestamp) body[names.timestamp] = new Date(at).toISOString();
      const x = await s.attempt('captureNote', { method: endpoint.method, path: endpoint.path, json: body });
      if (x.status === 404 || x.status === 405) {
        tried.push(`${where} answered ${x.status}`);
        break;
      }
      const label = `${where} with {${Object.keys(body).join(', ')}}`;
      const failed = failedAnswer(x);
      if (failed) {
        tried.push(`${label} ${failed}`);
        continue;
      }
      return accepted(s, { endpoint, names, label, x, word, at, unknownRefused, tried });
    }
  }
  return nothing(`no candidate was confirmed: ${tried.join('; ')}`);
}

const triedSoFar = (tried: readonly string[]) => (tried.length > 0 ? `tried ${tried.join('; ')}; ` : '');

function nothing(why: string): CaptureFindings {
  return {
    endpoint: notObserved(why),
    names: Object.fromEntries(
      CAPTURE_KEYS.map((k) => [k, notObserved(`needs the capture endpoint: ${why}`)]),
    ) as Record<CaptureKey, Finding<string>>,
  };
}

interface Acceptance {
  endpoint: EndpointDecl;
  names: Sent;
  label: string;
  x: Exchange;
  word: string;
  at: number;
  unknownRefused: boolean;
  tried: string[];
}

/** An accepted capture: its note looked up (and kept for the cleanup), and what that confirms. */
async function accepted(s: ProbeSession, a: Acceptance): Promise<CaptureFindings> {
  const requestId =
    typeof (a.x.json as { request_id?: unknown } | undefined)?.request_id === 'string'
      ? 'with a request_id'
      : 'without a request_id';
  const filed = await findFiled(s, a.word, a.names.timestamp ? a.at : undefined);
  if (!filed) {
    s.mayHaveMade(`the note of an accepted capture holding ${a.word}, if it is filed later`);
    return nothing(
      `${a.label} answered ${a.x.status} ${requestId}, but no note holding its word appeared (searched for ` +
        'about 6 s); declare it if this is the capture operation',
    );
  }
  const before = a.tried.length > 0 ? ` (before it: ${a.tried.join('; ')})` : '';
  const optional = (key: 'instructions' | 'context'): Finding<string> => {
    const name = a.names[key];
    if (!name) return notObserved('not confirmed: the captures that sent it were refused (see endpoints.capture)');
    if (a.unknownRefused) return observed(name, ACCEPTED_WHERE_REFUSED);
    return notObserved(
      `${name} was sent with the accepted capture, but the target ignores unknown fields (see unknown_fields) ` +
        'and it changes nothing the probe can read',
    );
  };
  return {
    endpoint: observed(
      a.endpoint,
      `${a.label}: answered ${a.x.status} ${requestId}, and a note holding its word appeared (${filed.how})${before}`,
    ),
    names: {
      input: observed(a.names.input, `the capture's ${a.names.input} was filed as a note (see endpoints.capture)`),
      instructions: optional('instructions'),
      context: optional('context'),
      timestamp: timestampFinding(a, filed.createdAt),
    },
  };
}

function timestampFinding(a: Acceptance, createdAt: unknown): Finding<string> {
  const name = a.names.timestamp;
  if (!name) return notObserved('not confirmed: the captures that sent it were refused (see endpoints.capture)');
  const sent = new Date(a.at).toISOString();
  const shown = typeof createdAt === 'string' ? Date.parse(createdAt) : Number.NaN;
  // Within the second: a target may keep whole seconds (timestamp_precision_ms).
  if (Math.abs(shown - a.at) < 1000)
    return observed(name, `the filed note's created_at was the ${name} sent (${sent})`);
  const seen = `the filed note's created_at (${String(createdAt)}) is not the ${name} sent (${sent})`;
  if (a.unknownRefused) return observed(name, `${ACCEPTED_WHERE_REFUSED}; ${seen}`);
  return notObserved(`${seen}, and the target ignores unknown fields (see unknown_fields)`);
}

/** A result that mentions the word anywhere (title, content, snippet), so is the capture's note. */
function holding(x: Exchange, word: string): Record<string, unknown> | undefined {
  if (failedAnswer(x)) return undefined;
  const results = ((x.json as { results?: unknown[] } | undefined)?.results ?? []) as Array<Record<string, unknown>>;
  return results.find((r) => typeof r?.id === 'string' && JSON.stringify(r).includes(word));
}

/**
 * The note the capture filed: listed in the second of its timestamp (a list has no index lag),
 * else searched for by its word until it shows. Only a note holding the word is adopted.
 */
async function findFiled(
  s: ProbeSession,
  word: string,
  at: number | undefined,
): Promise<{ how: string; createdAt: unknown } | undefined> {
  const adopt = (hit: Record<string, unknown>, how: string) => {
    s.adopt(String(hit.id));
    return { how, createdAt: hit.created_at };
  };
  if (at !== undefined && s.affords(2)) {
    const x = await s.attempt('listNotes', {
      method: 'GET',
      path: '/v2/notes',
      query: {
        filter_by_created_after: new Date(at - 1000).toISOString(),
        filter_by_created_before: new Date(at + 1000).toISOString(),
        limit: 10,
      },
    });
    const hit = holding(x, word);
    if (hit) return adopt(hit, 'listed in the second of its timestamp');
  }
  let wait = 200;
  for (let i = 0; i < SEARCHES && s.affords(2); i++) {
    const x = await s.attempt('searchNotes', {
      method: 'POST',
      path: '/v2/notes/search',
      query: { limit: 5 },
      json: { query: word },
    });
    const hit = holding(x, word);
    if (hit) return adopt(hit, 'found by a search for the word');
    await sleep(wait);
    wait *= 2;
  }
  return undefined;
}
