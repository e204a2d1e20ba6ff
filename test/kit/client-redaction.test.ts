import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TargetClient } from '../../kit/core/client.js';

/** Evidence leaves the run in reports: no credential may be in it, also one learned mid-run. */
describe('evidence redaction', () => {
  const server = createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    res.setHeader('x-echo', String(req.headers.authorization));
    res.end(JSON.stringify({ user_id: 'u1', token: 'learned-token-123456', echo: req.headers.authorization }));
  });
  let url = '';
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('redacts given and learned secrets from text, headers and path, and drops the parsed body', async () => {
    const learned: string[] = [];
    const client = new TargetClient({
      baseUrl: url,
      timeoutMs: 2000,
      requestBudget: 10,
      secrets: ['given-token-abcdef'],
      onSecretLearned: (s) => learned.push(s),
    });
    const x = await client.send({
      method: 'POST',
      path: '/_fixtures/users?t=given-token-abcdef',
      json: {},
      token: 'given-token-abcdef',
    });
    expect((x.json as { token: string }).token, 'the check itself sees the real value').toBe('learned-token-123456');
    client.addSecret('learned-token-123456');
    // The run command hears of it too, for the final redaction of every report (kit/run.ts).
    expect(learned).toEqual(['learned-token-123456']);
    expect(client.secrets).toEqual(['given-token-abcdef', 'learned-token-123456']);
    const evidence = JSON.stringify(client.forEvidence(x));
    expect(evidence).not.toContain('learned-token-123456');
    expect(evidence).not.toContain('given-token-abcdef');
    expect(client.forEvidence(x).json).toBeUndefined();
    await client.close();
  });
});
