import { type EndpointDecl, type Profile, parseProfile, profileSchema, REFUSAL_KINDS } from '../../spec/profile.js';
import { UsageError } from '../../spec/verdicts.js';
import { probeTarget, probeToken } from '../probe.js';
import { probeCapture } from './capture.js';
import { probeRemove, probeRestore } from './endpoints.js';
import { errorBodyFindings, sameAnswerAs } from './error-body.js';
import { type Finding, type Findings, isObserved, notObserved, observed } from './findings.js';
import { rateLimitFindings, sampleHeaderOperations, timestampPrecision } from './headers-and-precision.js';
import { probeCollectionsNames } from './names-collections.js';
import { type ProbeCollection, probeNotesNames } from './names-notes.js';
import { createProbeCollections, createProbeNotes, MARKERS, type ProbeCollections } from './probe-data.js';
import { provokeRefusals, statusFindings } from './refusals.js';
import { type CleanupResult, Interrupted, ProbeSession, StepRefused } from './session.js';
import { probeListOrder, probeTitle } from './titles-and-order.js';
import { probeUnknownFields } from './unknown-fields.js';
import { missingKeys, renderProfile } from './writer.js';

export interface InferOptions {
  /** Base URL of the target (http or https, no credentials). */
  target: string;
  token: string;
  secondaryToken?: string;
  /** The profile's name (default: "inferred from HOST"). */
  name?: string;
  requestsPerSecond?: number;
  timeoutMs?: number;
  /** Aborted on Ctrl-C: the probe stops between requests and cleans up. */
  signal?: AbortSignal;
  now?: Date;
}

export interface Inference {
  findings: Findings;
  /** The commented YAML profile. */
  yaml: string;
  /** The same profile as the kit loads it. */
  profile: Profile;
  requests: number;
  cleanup: CleanupResult;
  /** The steps the target refused (an endpoint it does not have yet), each with why; the probe went on without them. */
  stopped: readonly string[];
  /** How many keys the profile leaves commented out, each with the reason it was not observed. */
  missing: number;
}

/** The probe did not finish (a failed step or an interrupt); what it created was cleaned up as far as possible. */
export class ProbeStopped extends Error {
  override name = 'ProbeStopped';
  constructor(
    message: string,
    readonly interrupted: boolean,
    readonly requests: number,
    readonly cleanup: CleanupResult,
  ) {
    super(message);
  }
}

type Probed = Omit<Findings, 'target' | 'requests' | 'leftBehind' | 'rateLimit' | 'statuses' | 'errorBody'> & {
  provoked: Awaited<ReturnType<typeof provokeRefusals>>;
};

/**
 * Requests the name probes leave for the steps after them: the refusals (about 11), the restore
 * and remove endpoints (2 a try), one capture try (3: the capture, a look-up of its note, the
 * delete) and one header sample.
 */
const RESERVE_AFTER_NAMES = 21;

/**
 * A probe step the target could not serve, its 4xx answer saying the endpoint is not there (a
 * server early in its implementation): the step's values are left out with the reason, in `stopped`,
 * and the probe goes on. A 5xx, no answer or an interrupt still stop the whole probe.
 */
async function orElse<T, U>(
  stopped: string[],
  what: string,
  run: () => Promise<T>,
  otherwise: (why: string) => U,
): Promise<T | U> {
  try {
    return await run();
  } catch (error) {
    if (!(error instanceof StepRefused)) throw error;
    stopped.push(`${what} (${error.message})`);
    return otherwise(`${what} was refused (${error.message})`);
  }
}

/** Every slot of a `names` section of the profile schema, not observed for one reason. */
function unprobed(section: string, why: string): Record<string, Finding<string>> {
  const names = (profileSchema().properties as Record<string, { properties: Record<string, { properties?: object }> }>)
    .names!.properties[section]!.properties as Record<string, unknown>;
  return Object.fromEntries(
    Object.keys(names)
      .filter((k) => k !== 'response_shape_fields')
      .map((k) => [k, notObserved<string>(why)]),
  );
}

/** The probe's steps, in an order that needs each resource once: at most MAX_REQUESTS requests. */
async function probe(s: ProbeSession, options: InferOptions, stopped: string[]): Promise<Probed> {
  const problem = await s.recorded('listNotes', (client) => probeTarget(client, options.token));
  if (problem) throw new UsageError(problem);
  if (options.secondaryToken)
    await s.recorded('listNotes', (client) => probeToken(client, options.secondaryToken!, 'secondary'));
  const unknownFields = await probeUnknownFields(s);
  const collections = await orElse(
    stopped,
    'creating the probe collections',
    () => createProbeCollections(s),
    (why) => ({ why }),
  );
  const inside: ProbeCollection = 'why' in collections ? collections : collections.inside;
  const notes = await orElse(
    stopped,
    'creating the probe notes',
    () => createProbeNotes(s, typeof inside === 'string' ? inside : undefined),
    (why) => ({ why }),
  );
  if ('why' in notes) return withoutNotes(notes.why, unknownFields, options, collections, s);
  const title = await probeTitle(s, notes);
  const listOrder = await probeListOrder(s, notes);
  s.reserve = RESERVE_AFTER_NAMES;
  const refused = isObserved(unknownFields) && unknownFields.value === 'refuse';
  const notesNames = await probeNotesNames(s, notes, inside, refused);
  const collectionsNames =
    'why' in collections
      ? { list: unprobed('collections_list', collections.why), search: unprobed('collections_search', collections.why) }
      : await probeCollectionsNames(s, collections);
  s.reserve = 0;
  const provoked = await provokeRefusals(s, notes.byKind.done, notes.byKind.open);
  if (notesNames.cursorMismatch.length > 0) {
    provoked.samples.push(...notesNames.cursorMismatch);
    delete provoked.why.cursor_mismatch;
  } else if (notesNames.cursorMismatchWhy) provoked.why.cursor_mismatch = notesNames.cursorMismatchWhy;
  const restore = provoked.why.trashed
    ? notObserved<EndpointDecl>(`needs a trashed note: ${provoked.why.trashed}`)
    : await probeRestore(s, notes.byKind.done);
  const remove =
    typeof inside === 'string'
      ? await probeRemove(s, notes.byKind.open.id, inside)
      : notObserved<EndpointDecl>(inside.why);
  const capture = await probeCapture(s, notes, refused);
  await sampleHeaderOperations(s, notes.byKind.image);
  return {
    title,
    listOrder,
    timestampPrecisionMs: timestampPrecision(notes.sent),
    secondaryToken: secondaryFinding(options),
    provoked,
    unknownFields,
    names: {
      notes_list: notesNames.list,
      notes_search: { ...notesNames.search, response_shape_fields: notesNames.responseShapeFields },
      collections_list: collectionsNames.list,
      collections_search: collectionsNames.search,
      capture: capture.names,
    },
    endpoints: endpoints(restore, remove, capture.endpoint),
    contentMarkers: contentMarkers(notesNames.list, notesNames.search),
  };
}

function secondaryFinding(options: InferOptions): Finding<boolean> {
  return options.secondaryToken
    ? observed(true, 'the second token given was accepted (GET /v2/notes answered 200)')
    : notObserved("no --secondary-token was given; give a second user's token to run the isolation checks");
}

function endpoints(
  restore: Finding<EndpointDecl>,
  remove: Finding<EndpointDecl>,
  capture: Finding<EndpointDecl>,
): Probed['endpoints'] {
  return {
    restore_note: restore,
    remove_note_from_collection: remove,
    attachment_question: notObserved('needs an attachment, which the document gives no way to upload'),
    trash_collection: notObserved('not in the document; declare it only if the target has one'),
    capture,
  };
}

/** A target that would not create the probe's notes: what needs none (its collection names), the rest left out. */
async function withoutNotes(
  why: string,
  unknownFields: Probed['unknownFields'],
  options: InferOptions,
  collections: ProbeCollections | { why: string },
  s: ProbeSession,
): Promise<Probed> {
  const collectionsNames =
    'why' in collections
      ? { list: unprobed('collections_list', collections.why), search: unprobed('collections_search', collections.why) }
      : await probeCollectionsNames(s, collections);
  const notesList = unprobed('notes_list', why);
  const notesSearch = unprobed('notes_search', why);
  return {
    title: notObserved(why),
    listOrder: notObserved(why),
    timestampPrecisionMs: notObserved(why),
    secondaryToken: secondaryFinding(options),
    provoked: { samples: [], why: Object.fromEntries(REFUSAL_KINDS.map((k) => [k, why])) },
    unknownFields,
    names: {
      notes_list: notesList,
      notes_search: {
        ...notesSearch,
        response_shape_fields: { include_content: notObserved(why), include_snippet: notObserved(why) },
      },
      collections_list: collectionsNames.list,
      collections_search: collectionsNames.search,
      capture: unprobed('capture', why),
    },
    endpoints: endpoints(notObserved(why), notObserved(why), notObserved(why)),
    contentMarkers: contentMarkers(notesList, notesSearch),
  };
}

/**
 * A marker is confirmed when a contains filter kept the note that carries it (list or search):
 * the done task needs the any-task filter to keep it and the open-task filter to leave it out.
 */
function contentMarkers(
  list: Record<string, Finding<string>>,
  search: Record<string, Finding<string>>,
): Findings['contentMarkers'] {
  const name = (slot: string) => [list[slot], search[slot]].find(isObserved)?.value;
  const marker = (kind: keyof typeof MARKERS, kept: string, leftOutBy?: string) => {
    const [keeper, other] = [name(kept), leftOutBy ? name(leftOutBy) : undefined];
    if (keeper === undefined || (leftOutBy && other === undefined))
      return notObserved<string>(`needs the ${[kept, leftOutBy].filter(Boolean).join(' and ')} filter, not confirmed`);
    const how = `the probe note with this line was kept by ${keeper}${other ? ` and left out by ${other}` : ''}`;
    return observed(MARKERS[kind], how);
  };
  return {
    open_task: marker('open', 'contains_open_tasks'),
    done_task: marker('done', 'contains_tasks', 'contains_open_tasks'),
    image: marker('image', 'contains_images'),
    file: marker('file', 'contains_files'),
  };
}

/** Statuses and the error body from the refusals, each read in the light of the other. */
function refusalFindings(provoked: Probed['provoked']): Pick<Findings, 'statuses' | 'errorBody'> {
  const first = statusFindings(provoked, () => false);
  const draft = errorBodyFindings(provoked.samples, (sample) => isObserved(first[sample.kind]));
  const missing = provoked.samples.find((sample) => sample.kind === 'not_found');
  const statuses = statusFindings(provoked, sameAnswerAs(missing?.x, draft.kindPointer));
  // Read again from the bodies of the kinds whose status stands (a stranger's refusal that merely
  // hid the note is no forbidden body): the evidence names only refusals that were observed.
  const body = errorBodyFindings(provoked.samples, (sample) => isObserved(statuses[sample.kind]));
  return { statuses, errorBody: body };
}

/**
 * `profile init`: probes the target within MAX_REQUESTS requests, deletes what it created (also
 * when a step fails or the probe is interrupted), and returns the commented profile, checked with
 * the kit's own profile loader.
 */
export async function inferProfile(options: InferOptions): Promise<Inference> {
  const session = new ProbeSession({
    baseUrl: options.target,
    token: options.token,
    ...(options.secondaryToken ? { secondaryToken: options.secondaryToken } : {}),
    ...(options.requestsPerSecond ? { requestsPerSecond: options.requestsPerSecond } : {}),
    timeoutMs: options.timeoutMs ?? 10_000,
    signal: options.signal ?? new AbortController().signal,
  });
  const stopped: string[] = [];
  try {
    let probed: Probed;
    try {
      probed = await probe(session, options, stopped);
    } catch (error) {
      const cleanup = await session.cleanUp();
      if (
        error instanceof UsageError &&
        cleanup.deleted + cleanup.deletedCollections === 0 &&
        cleanup.left.length === 0
      )
        throw error;
      const interrupted = error instanceof Interrupted || options.signal?.aborted === true;
      const what = interrupted ? 'interrupted' : `could not finish: ${(error as Error).message}`;
      throw new ProbeStopped(what, interrupted, session.sent, cleanup);
    }
    const cleanup = await session.cleanUp();
    const { provoked, ...rest } = probed;
    const findings: Findings = {
      ...rest,
      ...refusalFindings(provoked),
      target: options.target,
      requests: session.sent,
      leftBehind: cleanup.left,
      rateLimit: rateLimitFindings(session.answers),
    };
    const now = options.now ?? new Date();
    const yaml = session.client.redact(
      renderProfile(findings, {
        name: options.name ?? `inferred from ${new URL(options.target).host}`,
        date: now.toISOString().slice(0, 10),
      }),
    );
    const profile = parseProfile(yaml, 'the inferred profile');
    return { findings, yaml, profile, requests: session.sent, cleanup, stopped, missing: missingKeys(findings) };
  } finally {
    await session.close();
  }
}
