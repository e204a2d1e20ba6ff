import { errorBodyProblems } from '../../../spec/error-body.js';
import type { RefusalKind } from '../../../spec/profile.js';
import type { Env } from './env.js';
import type { Observation } from './observation.js';

/**
 * A refusal whose kind the oracle is sure of (the input alone explains it, or the state it knows:
 * a missing or trashed note, another version) carries the body the profile declares (error_body),
 * whichever check sent it. Nothing is judged where the profile declares no body, nor of an answer
 * that is not a 4xx (the status rules judge those).
 */
export function judgeErrorBody(env: Env, o: Observation, kind: RefusalKind, why: string): void {
  if (!env.errorBody || o.x.status < 400 || o.x.status >= 500) return;
  const problems = errorBodyProblems(o.x.json, env.errorBody, kind);
  env.j.that(
    'errors.body.shape',
    problems.length === 0,
    () => `${o.method} ${o.path}: ${why}, refused with ${o.x.status} (${kind}): ${problems.join('; ')}`,
    o.x,
  );
}
