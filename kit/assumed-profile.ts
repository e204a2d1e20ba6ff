import { loadBuiltinProfile, type Profile } from '../spec/profile.js';

/**
 * The profile the kit assumes for a target that declares none: the reference fake's choices,
 * so that `profile` rules are judged (their failures only report), without what the document
 * does not show and a target must declare: budgets (a remote target is paced), the fake's own
 * settings, endpoints (restore, remove, the attachment question), a fixture API, the
 * rate-limit header names and the search index lag. Parameter names and content markers stay in, but a `documented` rule
 * is never judged through them: `kit.ctx.profileDeclared` is false, and checks (unmetNeed) and
 * the differential run (operations offered) leave alone whatever would need them.
 */
export function assumedProfile(): Profile {
  // Nor the fake's index lag of 0: a target that declares none is given the default wait (kit/core/timing.ts).
  const {
    budgets: _budgets,
    fake: _fake,
    endpoints: _endpoints,
    capabilities,
    search_index_lag_ms: _lag,
    ...rest
  } = loadBuiltinProfile('fake');
  const { fixtures: _fixtures, rate_limit_headers: _headers, ...caps } = capabilities ?? {};
  return { ...rest, name: 'assumed (reference fake defaults)', capabilities: caps };
}
