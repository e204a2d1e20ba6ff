import { UUID_IN_TEXT } from '../../spec/patterns.js';
import type { ReplayPlan } from '../../spec/replay.js';
import type { CurlOptions, NamedSecret, PlannedRequest } from './repro.js';

/**
 * A failed check's repro as one runnable script: the requests of the check that made what the
 * failing request names (the creates of the notes and collections in its path or body, and the
 * writes that changed them since), then the failing request. The run deletes what it made, so a
 * lone command on a note of the run answers 404 afterwards; the script makes its own. Ids the
 * target gave are read from its answers; ids the kit gave its creates (create-only: a second
 * create of one answers 409) are fresh ones. Tokens come from the environment, checked first with
 * a plain message.
 */

/** What the script needs of a recorded exchange (kit/core/exchange.ts). */
export interface Replayable {
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly requestBody?: string;
  /** The id a 2xx POST answered with (a create's): the state a later request may name. */
  readonly createdId?: string;
  /** Its place among the requests of its client. */
  readonly seq?: number;
  readonly repro?: string;
  /** The request as a curl command, with these values as variables too. */
  readonly replay?: (variables: readonly NamedSecret[], options?: CurlOptions) => string;
  /** The request as data, with these values as markers (the run's own replay, kit/confirm.ts). */
  readonly plan?: (variables: readonly NamedSecret[]) => PlannedRequest;
  /** The answer's body (the failing one's is what a replay is compared with). */
  readonly text?: string;
}

/** A failure's repro: the script a reader runs, and the same steps as data for the run's replay. */
export interface Repro {
  readonly script?: string;
  readonly plan?: ReplayPlan;
}

export function reproScript(
  recorded: readonly Replayable[],
  failingAt: number,
  elsewhere: (id: string) => readonly Replayable[] = () => [],
): string | undefined {
  return reproduce(recorded, failingAt, elsewhere).script;
}

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** Refused writes a script sends again, at most (the latest). */
const REFUSALS_KEPT = 3;
/** POSTs that change nothing: the searches. */
const isSearch = (x: Replayable) => x.method === 'POST' && /\/search(\?|$)/.test(x.path);

/**
 * `elsewhere`: what made and changed an id outside this check's exchanges (an earlier check's
 * note, which the run's oracle judged a request on), as far as the client knows: sent first, in
 * the order the client sent them.
 */
export function reproduce(
  recorded: readonly Replayable[],
  failingAt: number,
  elsewhere: (id: string) => readonly Replayable[] = () => [],
): Repro {
  const failing = recorded[failingAt];
  if (!failing?.replay) return failing?.repro ? { script: failing.repro } : {};
  const exchanges = inOrder(
    [...writesElsewhere(recorded.slice(0, failingAt + 1), elsewhere), ...recorded.slice(0, failingAt)],
    failing,
  );
  const at = exchanges.length - 1;
  // Every id an earlier create of the check answered with, and which create made it.
  const made = new Map<string, number>();
  for (let i = 0; i < at; i++) {
    const id = exchanges[i]!.createdId;
    if (id && id.length >= 4 && !made.has(id)) made.set(id, i);
  }
  const mentions = (x: Replayable) => [...made.keys()].filter((id) => named(x, id));
  // What the failing request names, what made that, and what the writes since name: until it holds.
  const needed = new Set(mentions(failing));
  let steps: number[] = [];
  for (let size = -1; size !== needed.size; ) {
    size = needed.size;
    for (const id of [...needed]) for (const m of mentions(exchanges[made.get(id)!]!)) needed.add(m);
    // The writes that made and changed them, in the order sent; what the target refused changed nothing.
    steps = [];
    for (let i = 0; i < at; i++) {
      const x = exchanges[i]!;
      const ok = x.status >= 200 && x.status < 300;
      const makes = x.createdId !== undefined && needed.has(x.createdId) && made.get(x.createdId) === i;
      if (!ok || READS.has(x.method) || isSearch(x) || !(makes || [...needed].some((id) => named(x, id)))) continue;
      steps.push(i);
      for (const m of mentions(x)) if (made.get(m)! < i) needed.add(m);
    }
  }
  // A refusal should change nothing, so it is left out; but a target that broke that is shown only
  // by sending it again: the latest few refused writes of what is needed, after what made it.
  const refusals = [];
  for (let i = 0; i < at; i++) {
    const x = exchanges[i]!;
    if (x.status < 400 || x.status >= 500 || x.status === 429 || READS.has(x.method) || isSearch(x)) continue;
    if ([...needed].some((id) => made.get(id)! < i && named(x, id))) refusals.push(i);
  }
  steps = [...steps, ...refusals.slice(-REFUSALS_KEPT)].sort((a, b) => a - b);
  const variables = variablesFor(exchanges, needed, made);
  // A failing create of an id the kit gave and nothing earlier made: sent again with that id it would
  // meet the run's own create (create-only: 409), so it gets a fresh one too.
  const own = failing.method === 'POST' ? ownCreateId(failing) : undefined;
  if (own && !made.has(own)) {
    const kind = /\/v2\/notes(\?|$)/.test(failing.path) ? 'NOTE' : 'COLLECTION';
    const n = variables.filter((v) => v.variable.startsWith(`${kind}_`)).length + 1;
    variables.push({ value: own, variable: `${kind}_${n}`, fresh: true });
  }
  const lines = [
    '#!/bin/sh',
    steps.length > 0
      ? `# Recreates what the failing request names (${steps.length} request${steps.length === 1 ? '' : 's'}), then sends it.`
      : '# Sends the failing request again.',
    'set -eu',
  ];
  const body: string[] = [];
  for (const i of steps) {
    const x = exchanges[i]!;
    const id = x.createdId && needed.has(x.createdId) && made.get(x.createdId) === i ? x.createdId : undefined;
    const variable = id ? variables.find((v) => v.value === id)! : undefined;
    const what = `${x.method} ${shown(x.path, variables)}`;
    body.push(`# ${what}${variable ? `, which makes $${variable.variable}` : ''} (answered ${x.status} in the run)`);
    if (variable && !kitGave(x, id!)) {
      // The target's id, read from its answer.
      const command = x.replay!(variables, { bodyOnly: true, after: '| created_id' });
      body.push(`${variable.variable}=$(${command}\n)`);
      body.push(`[ -n "$${variable.variable}" ] || { echo "${what} answered no id" >&2; exit 1; }`);
    } else body.push(x.replay!(variables, { bodyOnly: true, after: '>/dev/null' }));
  }
  const failed = `${failing.method} ${shown(failing.path, variables)}`;
  body.push(`# The request that failed: ${failed} (answered ${failing.status} in the run)`, failing.replay(variables));
  const text = body.join('\n');
  const fresh = variables.filter((v) => v.fresh);
  const script = [
    ...lines,
    ...tokenChecks(text),
    ...(fresh.length > 0 || steps.length > 0 ? HELPERS : []),
    // Ids the kit gave its creates are create-only: the script gives fresh ones.
    ...fresh.map((v) => `${v.variable}=$(uuid)`),
    text,
  ].join('\n');
  const sent = [...steps.map((i) => exchanges[i]!), failing];
  if (!sent.every((x) => x.plan)) return { script };
  const plan: ReplayPlan = {
    steps: sent.map((x, n) => {
      const i = steps[n];
      const id =
        i !== undefined && x.createdId && needed.has(x.createdId) && made.get(x.createdId) === i
          ? x.createdId
          : undefined;
      const variable = id && !kitGave(x, id) ? variables.find((v) => v.value === id)?.variable : undefined;
      return { ...x.plan!(variables), ...(variable ? { makes: variable } : {}) };
    }),
    fresh: fresh.map((v) => v.variable),
    ids: Object.fromEntries(variables.map((v) => [v.variable, v.value])),
    answered: { status: failing.status, text: failing.text ?? '' },
  };
  return { script, plan };
}

/** What looks like an id of a note or collection: a UUID, or a path segment after notes/ or collections/. */
const ID_LIKE = new RegExp(`${UUID_IN_TEXT.source}|(?<=/v2/(?:notes|collections)/)[^/?#]+`, 'gi');

/** The writes made outside these exchanges of what they name (and what those name, in turn). */
function writesElsewhere(
  exchanges: readonly Replayable[],
  elsewhere: (id: string) => readonly Replayable[],
): Replayable[] {
  const within = new Set(exchanges.map((x) => x.createdId).filter((id): id is string => id !== undefined));
  const found: Replayable[] = [];
  const seen = new Set<string>();
  const visit = (x: Replayable) => {
    for (const [id] of `${x.path}\n${x.requestBody ?? ''}`.matchAll(ID_LIKE)) {
      if (seen.has(id) || within.has(id)) continue;
      seen.add(id);
      const writes = elsewhere(id).filter((w) => w.replay);
      for (const w of writes) visit(w);
      found.push(...writes);
    }
  };
  for (const x of exchanges) visit(x);
  return found;
}

/**
 * The exchanges in the order the client sent them (by seq), each once, none sent after the failing
 * one, which comes last. Without seq (a client that does not number) the order given stands.
 */
function inOrder(exchanges: readonly Replayable[], failing: Replayable): Replayable[] {
  const at = failing.seq ?? Number.POSITIVE_INFINITY;
  const seen = new Set<number>();
  const kept = exchanges.filter((x) => {
    if (x.seq === undefined) return true;
    if (seen.has(x.seq) || x.seq >= at) return false;
    seen.add(x.seq);
    return true;
  });
  return [...kept.sort((a, b) => (a.seq ?? 0) - (b.seq ?? 0)), failing];
}

interface IdVariable extends NamedSecret {
  readonly fresh: boolean;
}

/** NOTE_1, COLLECTION_1, ... for the ids the script makes again, in the order made. */
function variablesFor(
  exchanges: readonly Replayable[],
  needed: ReadonlySet<string>,
  made: ReadonlyMap<string, number>,
): IdVariable[] {
  const counts = new Map<string, number>();
  return [...needed]
    .sort((a, b) => made.get(a)! - made.get(b)!)
    .map((value) => {
      const x = exchanges[made.get(value)!]!;
      const kind = /\/v2\/notes(\?|$)/.test(x.path)
        ? 'NOTE'
        : /\/v2\/collections(\?|$)/.test(x.path)
          ? 'COLLECTION'
          : 'ID';
      const n = (counts.get(kind) ?? 0) + 1;
      counts.set(kind, n);
      return { value, variable: `${kind}_${n}`, fresh: kitGave(x, value) };
    });
}

/** The id a create request gives its resource, if it is a create with one. */
function ownCreateId(x: Replayable): string | undefined {
  if (!/^\/v2\/(notes|collections)(\?|$)/.test(x.path)) return undefined;
  try {
    const id = (JSON.parse(x.requestBody ?? '') as { id?: unknown }).id;
    return typeof id === 'string' && id.length >= 4 ? id : undefined;
  } catch {
    return undefined;
  }
}

/** Whether the kit gave the create this id itself (create-only ids), rather than the target. */
function kitGave(x: Replayable, id: string): boolean {
  return x.requestBody?.includes(JSON.stringify(id)) === true;
}

function named(x: Replayable, id: string): boolean {
  return x.path.includes(id) || x.requestBody?.includes(id) === true;
}

/** A path for a comment: without its query, the script's ids as their variables. */
function shown(path: string, variables: readonly NamedSecret[]): string {
  let out = path.split('?')[0]!;
  for (const v of variables) out = out.split(v.value).join(`$${v.variable}`);
  return out;
}

/**
 * A fresh UUID (version 4) and the first top-level `id` of a JSON answer, in POSIX sh: the first
 * `"id"` key of a create's answer is its own (collection_ids holds none, an escaped quote inside
 * content is no key).
 */
const HELPERS = [
  "uuid() { od -An -N16 -tx1 /dev/urandom | tr -d ' \\n' | sed 's/^\\(.\\{8\\}\\)\\(.\\{4\\}\\).\\(.\\{3\\}\\).\\(.\\{3\\}\\)\\(.\\{12\\}\\)$/\\1-\\2-4\\3-a\\4-\\5/'; }",
  'created_id() { grep -o \'"id" *: *"\\{0,1\\}[^",} ]*\' | head -n 1 | sed \'s/.*: *"\\{0,1\\}//\'; }',
];

// No quote characters: inside "${VAR:?word}" bash and sh read them differently.
const TOKEN_WORDS: ReadonlyArray<[RegExp, string]> = [
  [/^NOTES_TOKEN$/, 'the bearer token of the main test user (--token)'],
  [/^NOTES_SECONDARY_TOKEN$/, 'the token of the second user (--secondary-token)'],
  [/^NOTES_FIXTURES_TOKEN$/, 'the admin token of the fixture API'],
  [
    /^NOTES_FIXTURE_TOKEN_\d+$/,
    'the token of a fixture user (the one of the run went with its user: make one with the fixture API)',
  ],
];

/** A plain message for each credential the script reads from the environment, before any request. */
function tokenChecks(text: string): string[] {
  const used = [...new Set([...text.matchAll(/\$\{([A-Z][A-Z0-9_]*):\?\}/g)].map((m) => m[1]!))];
  return used
    .filter((v) => v.startsWith('NOTES_'))
    .map((v) => {
      const what = TOKEN_WORDS.find(([re]) => re.test(v))?.[1] ?? 'a credential of the run';
      return `: "\${${v}:?set ${v} to ${what}}"`;
    });
}
