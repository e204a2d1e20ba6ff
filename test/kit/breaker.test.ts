import { describe, expect, it } from 'vitest';
import { Breaker, TargetUnavailable } from '../../kit/core/breaker.js';

const timeout = () => new TargetUnavailable('GET /v2/notes: no complete answer within 1500 ms (timeout)', 'no-answer');

describe('the client breaker', () => {
  it('opens after three requests in a row get no answer, and names the last cause', () => {
    const breaker = new Breaker(60_000);
    breaker.failed(timeout());
    breaker.failed(timeout());
    expect(() => breaker.admit('GET /v2/notes')).not.toThrow();
    breaker.failed(timeout());
    const refused = (() => {
      try {
        breaker.admit('POST /v2/notes');
      } catch (error) {
        return error as TargetUnavailable;
      }
      return undefined;
    })();
    expect(refused).toBeInstanceOf(TargetUnavailable);
    expect(refused?.name).toBe('KitError');
    expect(refused?.message).toMatch(
      /POST \/v2\/notes not sent: .*3 requests in a row got no answer; the last: .*timeout/,
    );
  });

  it('is reset by any answer in between', () => {
    const breaker = new Breaker(60_000);
    for (let i = 0; i < 10; i++) {
      breaker.failed(timeout());
      breaker.failed(timeout());
      breaker.answered();
    }
    expect(() => breaker.admit('GET /v2/notes')).not.toThrow();
  });

  it('lets one trial through per cooldown, and closes when it is answered', async () => {
    const breaker = new Breaker(30);
    for (let i = 0; i < 3; i++) breaker.failed(timeout());
    expect(() => breaker.admit('a')).toThrow(/not sent/);
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(() => breaker.admit('the trial')).not.toThrow();
    expect(() => breaker.admit('during the trial')).toThrow(/not sent/);
    breaker.answered();
    expect(() => breaker.admit('after')).not.toThrow();
  });
});
