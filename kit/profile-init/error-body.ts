import type { Exchange } from '../core/client.js';
import {
  type ErrorBodyFindings,
  type Finding,
  isObserved,
  type KindName,
  notObserved,
  observed,
  type RefusalSample,
} from './findings.js';

/** A machine-readable kind: one word (letters, digits, _ . : -), not an id. */
const KIND_LIKE = /^[A-Za-z][A-Za-z0-9_.:-]{0,63}$/;
const UUID_LIKE = /[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}/i;
const KIND_NAMES = new Set(['type', 'code', 'kind', 'error_code', 'errorcode', 'error', 'reason', 'status']);
const MESSAGE_NAMES = new Set(['message', 'detail', 'details', 'description', 'error_description', 'msg', 'title']);

/** Every string in a JSON value, by JSON pointer. */
export function stringLeaves(value: unknown, pointer = '', out = new Map<string, string>()): Map<string, string> {
  if (typeof value === 'string') {
    if (pointer !== '') out.set(pointer, value);
  } else if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) stringLeaves(item, `${pointer}/${i}`, out);
  } else if (value !== null && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value))
      stringLeaves(inner, `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`, out);
  }
  return out;
}

const lastSegment = (pointer: string) => (pointer.split('/').pop() ?? '').toLowerCase();
const depth = (pointer: string) => pointer.split('/').length;

/**
 * Where the kind lives: a pointer holding a one-word string in every refusal body, the same for
 * refusals of the same kind and not the same for all kinds (so neither a request id nor a
 * constant). Named like a kind (type, code, ...) and shallow wins among several.
 */
function kindPointer(samples: RefusalSample[], leaves: Map<string, string>[]): string | undefined {
  const candidates = [...leaves[0]!.keys()].filter((p) =>
    leaves.every((l) => {
      const v = l.get(p);
      return v !== undefined && KIND_LIKE.test(v) && !UUID_LIKE.test(v);
    }),
  );
  const kinds = new Set(samples.map((s) => s.kind));
  const fitting = candidates.filter((p) => {
    const byKind = new Map<string, Set<string | undefined>>();
    for (const [i, l] of leaves.entries()) {
      const kind = samples[i]?.kind ?? '';
      byKind.set(kind, (byKind.get(kind) ?? new Set()).add(l.get(p)));
    }
    const consistent = [...byKind.values()].every((values) => values.size === 1);
    const distinct = new Set(leaves.map((l) => l.get(p))).size;
    return consistent && (kinds.size < 2 || distinct >= 2);
  });
  return rank(fitting, KIND_NAMES)[0];
}

/** Where the message lives: a string in every refusal body other than the kind, prose in some. */
function messagePointer(leaves: Map<string, string>[], kind: string | undefined): string | undefined {
  const candidates = [...leaves[0]!.keys()].filter(
    (p) => p !== kind && leaves.every((l) => l.get(p) !== undefined) && leaves.some((l) => /\s/.test(l.get(p)!.trim())),
  );
  return rank(candidates, MESSAGE_NAMES)[0];
}

function rank(pointers: string[], names: Set<string>): string[] {
  return [...pointers].sort(
    (a, b) =>
      Number(!names.has(lastSegment(a))) - Number(!names.has(lastSegment(b))) ||
      depth(a) - depth(b) ||
      a.localeCompare(b),
  );
}

/** "9 refusal bodies of 7 kinds (validation, ...)": the count of bodies and the kinds they are, never confused. */
const describe = (samples: RefusalSample[]) => {
  const kinds = [...new Set(samples.map((s) => s.kind))];
  return `${samples.length} refusal bodies of ${kinds.length} kind${kinds.length === 1 ? '' : 's'} (${kinds.join(', ')})`;
};

/**
 * The error body's shape, by comparing the bodies of the refusals the probe provoked. Only
 * refusals whose status was observed take part. A body shape the unauthenticated refusal does not
 * share (an auth proxy's) is tried without it, since the kit reads kinds from the others.
 */
export function errorBodyFindings(
  samples: RefusalSample[],
  statusObserved: (s: RefusalSample) => boolean,
): ErrorBodyFindings {
  const usable = samples.filter((s) => statusObserved(s) && s.x.json !== null && typeof s.x.json === 'object');
  if (usable.length < 2) {
    const why = `only ${usable.length} refusal(s) with a JSON object body to compare`;
    return { kindPointer: notObserved(why), messagePointer: notObserved(why), kinds: {} };
  }
  const sets = [usable, usable.filter((s) => s.kind !== 'unauthenticated')].filter((set) => set.length >= 2);
  for (const set of sets) {
    const leaves = set.map((s) => stringLeaves(s.x.json));
    const kind = kindPointer(set, leaves);
    if (!kind) continue;
    const message = messagePointer(leaves, kind);
    const apart = set.length < usable.length ? "; the unauthenticated refusal's body has another shape" : '';
    return {
      kindPointer: observed(kind, `a one-word string at ${kind} in ${describe(set)}, one value per kind${apart}`),
      messagePointer: message
        ? observed(message, `a message at ${message} in the same bodies`)
        : notObserved(`no string with words in it appears in all ${set.length} refusal bodies`),
      kinds: kindValues(usable, kind),
    };
  }
  const why = `no pointer holds a one-word kind in all ${describe(usable)} that is the same for the same kind`;
  // A body with a message and no kind: {"detail": ...} (FastAPI, Starlette), {"message": ...}, {"errors": [...]}.
  const message = messageOnlyPointer(usable);
  return {
    kindPointer: notObserved(why),
    messagePointer: message
      ? observed(message, `a message (words, or a list of error entries) at ${message} in ${describe(usable)}`)
      : notObserved(why),
    kinds: {},
  };
}

/**
 * Where a kind-less body keeps its message: a pointer whose value is, in every body, a string with
 * words or a non-empty list of error entries (FastAPI answers {"detail": "Not Found"} but
 * {"detail": [{"loc": ..., "msg": ..., "type": ...}]} for a validation failure). Named like a
 * message (detail, message, errors, ...) and shallow wins.
 */
function messageOnlyPointer(samples: RefusalSample[]): string | undefined {
  const [first, ...rest] = samples.map((s) => nodes(s.x.json));
  const candidates = [...first!.entries()]
    .filter(([, v]) => isMessageValue(v))
    .map(([p]) => p)
    .filter((p) => rest.every((n) => isMessageValue(n.get(p))));
  const wordy = candidates.filter((p) =>
    samples.some((s) => {
      const v = nodes(s.x.json).get(p);
      return typeof v !== 'string' || /\s/.test(v.trim());
    }),
  );
  return rank(wordy, new Set([...MESSAGE_NAMES, 'errors', 'error']))[0];
}

/** Every value in a JSON document by JSON pointer, containers included (the root excepted). */
function nodes(value: unknown, pointer = '', out = new Map<string, unknown>()): Map<string, unknown> {
  if (pointer !== '') out.set(pointer, value);
  if (Array.isArray(value)) for (const [i, item] of value.entries()) nodes(item, `${pointer}/${i}`, out);
  else if (value !== null && typeof value === 'object')
    for (const [key, inner] of Object.entries(value))
      nodes(inner, `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`, out);
  return out;
}

/** What the kit accepts as a message (suites/errors): words, or a non-empty list of strings or objects. */
function isMessageValue(value: unknown): boolean {
  if (typeof value === 'string') return /\S/.test(value);
  return (
    Array.isArray(value) &&
    value.length > 0 &&
    value.every((e) => (typeof e === 'string' && /\S/.test(e)) || (e !== null && typeof e === 'object'))
  );
}

function kindValues(samples: RefusalSample[], pointer: string): Partial<Record<KindName, Finding<string>>> {
  const out: Partial<Record<KindName, Finding<string>>> = {};
  for (const s of samples) {
    if (s.kind === 'quota_exceeded') continue;
    const value = stringLeaves(s.x.json).get(pointer);
    const seen = out[s.kind];
    if (value === undefined) out[s.kind] = notObserved(`${s.what} answered a body without ${pointer}`);
    else if (!seen) out[s.kind] = observed(value, s.what);
    else if (isObserved(seen) && seen.value !== value)
      out[s.kind] = notObserved(`${seen.how} gave ${seen.value} but ${s.what} ${value}`);
  }
  return out;
}

/** Whether an answer has the status and the kind of a missing note's answer. */
export function sameAnswerAs(reference: Exchange | undefined, pointer: Finding<string>): (x: Exchange) => boolean {
  return (x) => {
    if (!reference || x.status !== reference.status) return false;
    if (!isObserved(pointer)) return true;
    return stringLeaves(x.json).get(pointer.value) === stringLeaves(reference.json).get(pointer.value);
  };
}
