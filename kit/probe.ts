import { isKitError, UsageError } from '../spec/verdicts.js';
import { TargetUnavailable } from './core/breaker.js';
import type { Exchange, TargetClient } from './core/client.js';

/** A 5xx may be a passing hiccup (a deploy, a proxy warming up): ask again before giving up. */
const TRIES_ON_5XX = 3;
const PAUSE_MS = 1000;

/**
 * The start-up probe: one list request, which every target of the API answers (2xx with the
 * token, 4xx without). No HTTP answer at all: the run cannot start (UsageError, exit 2). An
 * answer the API never gives (a redirect, a 5xx, an answer that is not JSON, 429 after the waits
 * the kit allows): returns why, in one line; the run and `profile init` stop on it with exit 2
 * instead of charging the target with hundreds of rules the kit could not judge.
 */
export async function probeTarget(client: TargetClient, token: string | undefined): Promise<string | undefined> {
  let x: Exchange | undefined;
  for (let attempt = 1; attempt <= TRIES_ON_5XX; attempt++) {
    if (attempt > 1) await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
    try {
      x = await client.send({ method: 'GET', path: '/v2/notes', query: { limit: 1 }, token: token ?? null });
    } catch (error) {
      if (error instanceof TargetUnavailable && error.why === 'rate-limited')
        return `the target refuses the kit from the start: ${error.message}`;
      if (isKitError(error)) throw new UsageError(`target unreachable: ${(error as Error).message}`);
      throw error;
    }
    if (x.status < 500) break;
  }
  const got = x!;
  const answer = `${got.method} ${got.path} answered ${got.status}`;
  if (got.status >= 500)
    return `the target does not answer like the API: ${answer} ${TRIES_ON_5XX} times in a row${excerpt(got)}`;
  if (got.status >= 300 && got.status < 400) {
    const to = got.headers.location ? ` to ${client.redact(got.headers.location)}` : '';
    return `the target redirects: ${answer}${to}; the kit follows no redirect (the token stays with the target): give the API's own base URL as --target`;
  }
  if (got.status < 300 && got.json === undefined)
    return `the target does not answer like the API: ${answer} with a body that is not JSON${excerpt(got)}`;
  // With a token, the list must succeed: a refusal here would turn every check into a false verdict.
  if (token !== undefined && (got.status === 401 || got.status === 403)) {
    throw new UsageError(`the target refuses the token: ${answer}${excerpt(got)}; check --token (or NOTES_TOKEN)`);
  }
  if (token !== undefined && got.status === 404) {
    throw new UsageError(
      `the target has no note list at ${answer}${excerpt(got)}; give the API's base URL as --target (paths start with /v2)`,
    );
  }
  // A proxy's or a web server's page: the API answers JSON.
  if (got.json === undefined && /html/i.test(got.headers['content-type'] ?? ''))
    return `the target does not answer like the API: ${answer} with an HTML page${excerpt(got)}`;
  return undefined;
}

/** The second user's token must be accepted too, or every isolation check would misjudge. */
export async function probeToken(client: TargetClient, token: string, which: string): Promise<void> {
  const x = await client.send({ method: 'GET', path: '/v2/notes', query: { limit: 1 }, token });
  if (x.status === 401 || x.status === 403)
    throw new UsageError(
      `the target refuses the ${which} token: ${x.method} ${x.path} answered ${x.status}${excerpt(x)}`,
    );
}

/** The start of the body on one line, enough to recognise a proxy's or a web server's page. */
function excerpt(x: Exchange): string {
  const text = x.text.replace(/\s+/g, ' ').trim();
  const parts = [x.headers['content-type'], text.length > 100 ? `${text.slice(0, 100)}…` : text].filter(Boolean);
  return parts.length > 0 ? ` (${parts.join(' ')})` : '';
}
