import { errorBodyProblems } from '../../../spec/error-body.js';
import { instantOf, isUuid } from '../../../spec/patterns.js';
import { sameInstant } from '../behaviour/outcomes.js';
import type { Expect, Prediction } from '../behaviour/prediction.js';
import { objectOf } from '../behaviour/request.js';
import type { Refusal } from '../behaviour/state.js';
import type { Exchange } from '../client.js';
import type { Env } from './env.js';
import type { Observation } from './observation.js';

/**
 * The one comparer: an answer against what the document predicts of it (kit/core/behaviour/). A
 * reason to refuse holds while the answer is no success (a 4xx, for a problem of the input); a
 * rule that says "accepted" holds on a success; a refusal of a certain kind carries the status and
 * body the profile declares for it; an accepted answer's fields are what was predicted. An answer
 * to a rate limit or a spent quota says nothing about the request and is not judged.
 */
export function judgePrediction(env: Env, p: Prediction, o: Observation): void {
  // A quota under test: its refusal answers the quota's own rules only (the input and the rest say nothing there).
  const quotaRefused = isQuotaRefusal(o);
  if (notAnAnswer(env, o) && !(p.quotaAnswers && quotaRefused)) return;
  const { j } = env;
  const status = o.x.status;
  const ok = status >= 200 && status < 300;
  const refused = status >= 400 && status < 500;
  const what = `${o.method} ${o.path}`;
  for (const r of p.refuse)
    j.that(
      r.rule,
      r.status !== undefined ? status === r.status : r.input ? refused : !ok,
      () =>
        r.status !== undefined && !ok
          ? `${what}: ${r.what}; the target answered ${status}`
          : status >= 500
            ? `${what}: ${r.what}, which is refused with a 4xx; the target answered ${status}`
            : `${what}: ${r.what}, which the document refuses; the target accepted it (${status})`,
      o.x,
      r.context,
    );
  const bad = p.refuse.find((r) => r.input && r.rule !== 'errors.bad-input.no-5xx');
  if (bad && !ok)
    j.that(
      'errors.bad-input.no-5xx',
      status < 500,
      () => `${what}: ${bad.what}; bad input gets a 4xx, never ${status}`,
      o.x,
    );
  for (const a of p.accept)
    if ((ok || refused || a.serverErrorFails) && !(quotaRefused && !a.rule.startsWith('quota.')))
      j.that(
        a.rule,
        ok,
        () => `${what}: ${a.what} is allowed by the document and must be accepted; the target answered ${status}`,
        o.x,
        a.context,
      );
  if (refused && p.kind && (!quotaRefused || p.kind.kind === 'quota_exceeded')) judgeKind(env, o, p.kind);
  if (refused && p.refusalHides?.texts.length)
    j.that(
      p.refusalHides.rule,
      !p.refusalHides.texts.some((text) => o.x.text.includes(text)),
      () => `${what} refused the ${o.actor} user (${status}) but its body shows the resource's text`,
      o.x,
    );
  const body = objectOf(o.x.json);
  if (ok && o.x.json !== undefined && (p.about === undefined || body.id === p.about))
    judgeFields(env, p.answer, body, o, what);
}

/** The declared status and body of a refusal whose kind is certain (none declared: a 4xx is all that is certain). */
function judgeKind(env: Env, o: Observation, kind: NonNullable<Prediction['kind']>): void {
  const what = `${o.method} ${o.path}: ${kind.why}, refused with ${o.x.status}`;
  // The profile's error body is for the refusals whose bodies the document does not show; quota_exceeded's it does.
  if (env.errorBody && kind.kind !== 'quota_exceeded') {
    const problems = errorBodyProblems(o.x.json, env.errorBody, kind.kind);
    env.j.that('errors.body.shape', problems.length === 0, () => `${what} (${kind.kind}): ${problems.join('; ')}`, o.x);
  }
  // The one refusal whose body the document shows (section 7), checked against it as it came (api.ts).
  if (kind.kind === 'quota_exceeded' && isQuotaRefusal(o)) {
    const problems = o.x.schemaProblems ?? [];
    env.j.that(
      'quota.create.exceeded-body',
      problems.length === 0,
      () => `${what}: ${problems.slice(0, 3).join('; ')}`,
      o.x,
    );
  }
  const declared = env.statuses[kind.kind];
  if (declared !== undefined)
    env.j.that(
      kind.rule,
      o.x.status === declared,
      () => `${what}; the profile declares ${declared} for ${kind.kind}`,
      o.x,
    );
}

/** The documented quota refusal (its body's error.type): a condition of the account, not an answer to the input. */
export function isQuotaRefusal(o: { x: Exchange }): boolean {
  return objectOf(objectOf(o.x.json).error).type === 'quota_exceeded';
}

/** An answer that says nothing about the request: rate limited, or the account's quota spent. */
export function notAnAnswer(env: Env, o: { x: Exchange }): boolean {
  return o.x.status === 429 || o.x.status === env.statuses.rate_limited || isQuotaRefusal(o);
}

/**
 * Each predicted field an answer (or a page's item) carries, against what was predicted. A field
 * the answer leaves out is the shape rules' (openapi.yaml) to judge. A value that a refused request
 * asked for is blamed on that refusal's rule: a refusal must change nothing.
 */
export function judgeFields(
  env: Env,
  expects: readonly Expect[],
  item: Record<string, unknown>,
  o: Pick<Observation, 'x' | 'startedAt' | 'endedAt'>,
  what: string,
): void {
  for (const e of expects) {
    if (e.field !== '' && !(e.field in item)) continue;
    const seen = e.field === '' ? item : item[e.field];
    if ('links' in e.is) {
      judgeLinks(env, e, seen, o.x, what);
      continue;
    }
    const holds = matches(env, e.is, seen, item, o);
    if (holds === undefined) continue;
    // The value stands though requests since asked for another: each of those refusals changed nothing
    // (there), so a later change of the field is not theirs.
    if (holds)
      for (const r of e.refusals ?? [])
        if (e.field in r.asked && !equalValue(r.asked[e.field], seen) && clear(r, e.field))
          env.j.that(r.rule, true, () => '', o.x);
    const refusal = holds ? undefined : refusalAsking(e.refusals ?? [], e.field, seen);
    env.j.that(
      refusal?.rule ?? e.rule,
      holds,
      () =>
        refusal
          ? `${what}: ${e.field} is ${show(seen)}, the value of a request the target refused` +
            ` (${refusal.by.method} ${refusal.by.path} answered ${refusal.by.status}); a refusal must change nothing`
          : `${what}: ${e.field || 'the body'} is ${shown(seen)}, not ${expected(e.is, item)}: ${e.from}` +
            (e.context ? ', and nothing since explains the change' : ''),
      o.x,
      refusal?.by ?? e.context,
    );
  }
}

/** Whether a value is what was predicted; undefined where this answer cannot tell (a title beside no plain first line). */
function matches(
  env: Env,
  is: Expect['is'],
  seen: unknown,
  item: Record<string, unknown>,
  o: Pick<Observation, 'x' | 'startedAt' | 'endedAt'>,
): boolean | undefined {
  if ('equal' in is) return deepEqual(seen, is.equal);
  if ('instant' in is) {
    const t = instantOf(seen);
    return t !== undefined && sameInstant(t, is.instant, env.precisionMs);
  }
  if ('serverTime' in is) {
    const t = instantOf(seen);
    const { low, high } = serverTimeWindow(o.x, o.startedAt, o.endedAt, env.clockToleranceMs, env.precisionMs);
    return t !== undefined && t >= low && t <= high;
  }
  if ('serverTimeOf' in is) {
    const t = instantOf(seen);
    const date = is.serverTimeOf.headers.date ? Date.parse(is.serverTimeOf.headers.date) : Number.NaN;
    if (Number.isNaN(date)) return undefined;
    const { low, high } = serverTimeWindow(is.serverTimeOf, date, date, env.clockToleranceMs, env.precisionMs);
    return t !== undefined && t >= low && t <= high;
  }
  if ('sameInstantAs' in is) {
    const other = instantOf(item[is.sameInstantAs]);
    if (other === undefined) return undefined;
    const t = instantOf(seen);
    return t !== undefined && sameInstant(t, other, env.precisionMs);
  }
  if ('newUuid' in is) return isUuid(seen) && !env.world.notes.has(seen) && !env.world.collections.has(seen);
  if ('integerAtLeast' in is) return Number.isInteger(seen) && (seen as number) >= is.integerAtLeast;
  if ('integerOtherThan' in is) return Number.isInteger(seen) && seen !== is.integerOtherThan;
  if ('trashedAt' in is) return is.trashedAt === 'null' ? seen === null : seen !== null && seen !== undefined;
  if ('lacks' in is) return !Array.isArray(seen) || !seen.includes(is.lacks);
  if ('holds' in is) return Array.isArray(seen) && seen.includes(is.holds);
  if ('firstLineOf' in is) {
    const content = item[is.firstLineOf];
    if (typeof content !== 'string') return undefined;
    const first = content.split(/\r?\n/, 1)[0]!;
    // A first line of plain words: letters and digits, single spaces, nothing markdown could mark up.
    if (first.length > 80 || !/^[\p{L}\p{N}]+(?: [\p{L}\p{N}]+)*$/u.test(first)) return undefined;
    return seen === first;
  }
  if ('namesNone' in is) {
    const body = objectOf(seen);
    const text = JSON.stringify(body);
    return !Object.values(body).some(Array.isArray) && !is.namesNone.some((id) => text.includes(id));
  }
  return undefined;
}

/** collection_ids is exactly the set of collections holding the note, each once; a link taken out is blamed on what took it. */
function judgeLinks(env: Env, e: Expect, seen: unknown, x: Exchange, what: string): void {
  if (!Array.isArray(seen) || !('links' in e.is)) return;
  const { links, unlinked } = e.is;
  const { j } = env;
  const refusals = e.refusals ?? [];
  const ids = seen.filter((v): v is string => typeof v === 'string');
  j.that(
    e.rule,
    new Set(ids).size === seen.length,
    () => `${what}: collection_ids lists a collection twice or holds a non-string: ${show(seen)}`,
    x,
  );
  // A set that is not the collections holding the note breaks the general rule, besides the operation's own.
  j.that(
    e.rule,
    ids.length === links.size && ids.every((id) => links.has(id)),
    () => `${what}: collection_ids is ${show(ids)}, the note is in ${show([...links.keys()])}`,
    x,
  );
  for (const id of ids) {
    if (links.has(id)) continue;
    const gone = unlinked.get(id);
    const refusal = refusals.find((r) => r.asked.link === id && !cleared(r, 'link'));
    j.that(
      refusal?.rule ?? gone?.rule ?? e.rule,
      false,
      () =>
        refusal
          ? `${what}: collection_ids holds ${id}, a link the target refused (${refusal.by.method} ${refusal.by.path} answered ${refusal.by.status})`
          : gone
            ? `${what}: collection_ids still holds ${id}, which ${gone.by.method} ${gone.by.path} took the note out of`
            : `${what}: collection_ids holds ${id}, a collection the run never linked the note to`,
      x,
      refusal?.by ?? gone?.by,
    );
  }
  // A link taken out is absent: the operation that took it out kept its promise.
  for (const [id, gone] of unlinked) if (!ids.includes(id)) j.that(gone.rule, true, () => '', x);
  for (const [id, fact] of links) {
    const present = ids.includes(id);
    const refusal = present ? undefined : refusals.find((r) => r.asked.unlink === id && !cleared(r, 'unlink'));
    // Still linked after refused moves and removes: those took nothing out.
    if (present)
      for (const r of refusals) if (r.asked.unlink === id && clear(r, 'unlink')) j.that(r.rule, true, () => '', x);
    j.that(
      refusal?.rule ?? fact.rule,
      present,
      () => `${what}: collection_ids ${show(ids)} lacks ${id}, linked by ${fact.by.method} ${fact.by.path}`,
      x,
      refusal?.by ?? fact.by,
    );
  }
}

/** What was predicted, in words. */
function expected(is: Expect['is'], item: Record<string, unknown>): string {
  if ('equal' in is) return show(is.equal);
  if ('instant' in is) return new Date(is.instant).toISOString();
  if ('serverTime' in is) return 'the server time of the exchange';
  if ('serverTimeOf' in is)
    return `the server time of ${is.serverTimeOf.method} ${is.serverTimeOf.path} (${is.serverTimeOf.headers.date})`;
  if ('sameInstantAs' in is) return `${is.sameInstantAs} (${show(item[is.sameInstantAs])})`;
  if ('newUuid' in is) return 'a UUID new to the run';
  if ('integerAtLeast' in is) return `an integer of at least ${is.integerAtLeast}`;
  if ('integerOtherThan' in is) return `an integer other than ${is.integerOtherThan}`;
  if ('trashedAt' in is) return is.trashedAt === 'null' ? 'null' : 'the time it was trashed';
  if ('lacks' in is) return `a list without ${is.lacks}`;
  if ('holds' in is) return `a list with ${is.holds}`;
  if ('firstLineOf' in is) return show(String(item[is.firstLineOf]).split(/\r?\n/, 1)[0]);
  if ('namesNone' in is) return 'metadata alone';
  return 'the collections holding the note';
}

/** The latest refusal that asked for exactly the value now seen (and no answer since showed it changed nothing there). */
function refusalAsking(refusals: readonly Refusal[], field: string, seen: unknown): Refusal | undefined {
  for (let i = refusals.length - 1; i >= 0; i--) {
    const r = refusals[i]!;
    if (field in r.asked && equalValue(r.asked[field], seen) && !cleared(r, field)) return r;
  }
  return undefined;
}

/** Fields of a refusal that an answer since showed unchanged: the refusal changed nothing there. */
const clearedFields = new WeakMap<Refusal, Set<string>>();
const cleared = (r: Refusal, field: string) => clearedFields.get(r)?.has(field) === true;
/** Marks the field cleared; answers whether it was not yet (a refusal's evidence counts once). */
function clear(r: Refusal, field: string): boolean {
  const fields = clearedFields.get(r) ?? new Set<string>();
  clearedFields.set(r, fields);
  if (fields.has(field)) return false;
  fields.add(field);
  return true;
}

function equalValue(asked: unknown, seen: unknown): boolean {
  if (asked === seen) return true;
  const a = instantOf(asked);
  const b = instantOf(seen);
  return a !== undefined && b !== undefined && a === b;
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => deepEqual(v, b[i]));
  return false;
}

/**
 * A value in a message, whole: the message is redacted before it is cut (judge.ts), so that a
 * token a target reflected is never left half-quoted where redaction cannot recognise it.
 */
export function show(value: unknown): string {
  return JSON.stringify(value) ?? String(value);
}

/** A whole body in a message is cut to its first 200 characters. */
function shown(value: unknown): string {
  const text = show(value);
  return typeof value === 'object' && value !== null && text.length > 200 ? `${text.slice(0, 200)}...` : text;
}

/**
 * The instants that are "server time" for an exchange: within the clock tolerance of when the
 * target answered, by its Date header when it sends one (a second's resolution), else by the
 * kit's clock around the exchange; a store that cuts instants to its precision may show up to one
 * step earlier.
 */
export function serverTimeWindow(
  x: Exchange,
  startedAt: number,
  endedAt: number,
  toleranceMs: number,
  precisionMs: number,
): { low: number; high: number } {
  const date = x.headers.date ? Date.parse(x.headers.date) : Number.NaN;
  const [low, high] = Number.isNaN(date)
    ? [startedAt - toleranceMs, endedAt + toleranceMs]
    : [date - toleranceMs - 1_000, date + toleranceMs + 1_000];
  return { low: low - Math.max(0, precisionMs - 1), high };
}
