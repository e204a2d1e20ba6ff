import type { TargetClient } from '../client.js';
import type { KitContext } from '../context.js';
import { reproduce } from '../repro-script.js';
import { searchIndexLagMs, timestampPrecisionMs } from '../timing.js';
import { Oracle } from './oracle.js';

/**
 * An oracle for the run's target, judging what `client` sends: a check worker's, and the one that
 * judges a failure's replay at the end of the run (kit/confirm.ts). Its findings carry the repro
 * (a script that makes again what the request names) and the same as data.
 */
export function runOracle(ctx: KitContext, client: TargetClient): Oracle {
  const { profile } = ctx;
  return new Oracle({
    precisionMs: timestampPrecisionMs(ctx),
    lagMs: searchIndexLagMs(ctx),
    redact: (text) => client.redact(text),
    evidence: (x) => {
      const { script, plan } = reproduce([x], 0, (id) => client.writesOf(id));
      return { ...client.forEvidence(x), ...(script ? { repro: script } : {}), ...(plan ? { replayPlan: plan } : {}) };
    },
    clockToleranceMs: ctx.clockToleranceMs,
    statuses: profile.statuses ?? {},
    ...(profile.error_body ? { errorBody: profile.error_body } : {}),
    ...(profile.list_order ? { listOrder: profile.list_order } : {}),
    ...(profile.content_markers ? { contentMarkers: profile.content_markers } : {}),
    ...(profile.capabilities?.rate_limit_headers ? { rateLimitHeaders: profile.capabilities.rate_limit_headers } : {}),
  });
}
