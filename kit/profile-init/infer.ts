import { type Profile, parseProfile } from '../../spec/profile.js';
import { UsageError } from '../../suites/harness/errors.js';
import { probeTarget, probeToken } from '../probe.js';
import { errorBodyFindings, sameAnswerAs } from './error-body.js';
import { type Findings, isObserved, notObserved, observed } from './findings.js';
import { rateLimitFindings, sampleHeaderOperations, timestampPrecision } from './headers-and-precision.js';
import { provokeRefusals, statusFindings } from './refusals.js';
import { type CleanupResult, Interrupted, ProbeSession } from './session.js';
import { createDatedNotes, probeListOrder, probeTitle } from './titles-and-order.js';
import { renderProfile } from './writer.js';

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

/** The probe's steps, in an order that needs each note once: at most about 30 requests. */
async function probe(s: ProbeSession, options: InferOptions): Promise<Probed> {
  const problem = await s.recorded('listNotes', (client) => probeTarget(client, options.token));
  if (problem) throw new UsageError(problem);
  if (options.secondaryToken)
    await s.recorded('listNotes', (client) => probeToken(client, options.secondaryToken!, 'secondary'));
  const { note: headed, title } = await probeTitle(s);
  const dated = await createDatedNotes(s);
  const listOrder = await probeListOrder(s, dated);
  const provoked = await provokeRefusals(s, dated.a, headed);
  await sampleHeaderOperations(s, dated.b);
  return {
    title,
    listOrder,
    timestampPrecisionMs: timestampPrecision(dated.sent),
    secondaryToken: options.secondaryToken
      ? observed(true, 'the second token given was accepted (GET /v2/notes answered 200)')
      : notObserved("no --secondary-token was given; give a second user's token to run the isolation checks"),
    provoked,
  };
}

/** Statuses and the error body from the refusals, each read in the light of the other. */
function refusalFindings(provoked: Probed['provoked']): Pick<Findings, 'statuses' | 'errorBody'> {
  const first = statusFindings(provoked, () => false);
  const body = errorBodyFindings(provoked.samples, (sample) => isObserved(first[sample.kind]));
  const missing = provoked.samples.find((sample) => sample.kind === 'not_found');
  const statuses = statusFindings(provoked, sameAnswerAs(missing?.x, body.kindPointer));
  const { forbidden, ...kinds } = body.kinds;
  return {
    statuses,
    errorBody: { ...body, kinds: isObserved(statuses.forbidden) && forbidden ? { ...kinds, forbidden } : kinds },
  };
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
  try {
    let probed: Probed;
    try {
      probed = await probe(session, options);
    } catch (error) {
      const cleanup = await session.cleanUp();
      if (error instanceof UsageError && cleanup.deleted === 0 && cleanup.left.length === 0) throw error;
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
    return { findings, yaml, profile: parseProfile(yaml, 'the inferred profile'), requests: session.sent, cleanup };
  } finally {
    await session.close();
  }
}
