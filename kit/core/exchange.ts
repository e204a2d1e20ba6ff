import type { ReplayPlan } from '../../spec/replay.js';
import type { CurlOptions, NamedSecret, PlannedRequest } from './repro.js';

/** One request and its answer, as recorded for evidence (bodies cut, secrets redacted). */
/**
 * One request and its answer. `Op` is the operationId it was sent for (a type only: it lets
 * `setupOk` give the body its documented type).
 */
export interface Exchange<Op extends string = string> {
  /** The operation it was sent for, as a type (never set at run time). */
  readonly operation?: Op;
  readonly method: string;
  /** Path and query, relative to the target's base URL. */
  readonly path: string;
  readonly requestHeaders: Readonly<Record<string, string>>;
  readonly requestBody?: string;
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** The response body as text (cut for the record, whole for parsing). */
  readonly text: string;
  /** The parsed JSON body, or undefined when the body is not JSON. */
  readonly json: unknown;
  readonly durationMs: number;
  /** Problems of a 200 body against its schema in spec/ (set by the api layer). */
  schemaProblems?: string[];
  /** A shell command sending this request again as it was sent, credentials as variables (repro.ts). */
  readonly repro?: string;
  /** The same command with more values as variables (ids a script makes again; repro-script.ts). */
  readonly replay?: (variables: readonly NamedSecret[], options?: CurlOptions) => string;
  /** The same request as data, with these values as markers (a failure's replay; kit/confirm.ts). */
  readonly plan?: (variables: readonly NamedSecret[]) => PlannedRequest;
  /** A finding's repro as data (the oracle's evidence; kit/confirm.ts replays it). */
  readonly replayPlan?: ReplayPlan;
  /** The id a 2xx POST answered with (a create's), a string or a number as text. */
  readonly createdId?: string;
  /** Its place among the requests its client sent (the order of writes a repro sends again). */
  readonly seq?: number;
  /** The exchange's entry in the run's recording (`--har`; har.ts), when it is recorded. */
  readonly id?: string;
}
