import { expect } from 'vitest';
import { primaryName } from '../../spec/profile.js';
import { checks, show } from '../harness/index.js';

const { check } = checks();

/**
 * The capture operation: the document names it only in its history ("asynchronous capture
 * operation"; request status tracking is only planned), so the kit judges what holds for every
 * endpoint (bearer authentication, 200 with request_id) and nothing of what becomes of the input.
 */
check(
  'a capture is answered 200 with a request_id, and is refused without a token',
  {
    rules: ['notes.capture.request-id'],
    oracle: ['notes.capture.bearer-required'],
    // The target files the input as a note of the account, sooner or later.
    needs: [{ notes: 1 }],
  },
  async (t) => {
    const word = t.data.word();
    const x = await t.api.capture({ input: t.data.content(`Capture ${word}`, 'sent by the conformance kit') });
    await t.verify('notes.capture.request-id', () => {
      expect(x.status, `a capture: ${show(x)}`).toBe(200);
      expect((x.json as { request_id?: unknown } | undefined)?.request_id, `request_id: ${show(x)}`).toBeTypeOf(
        'string',
      );
    });
    if (x.status === 200) await adoptCaptured(t, word);

    const decl = t.profile.endpoints!.capture!;
    const input = primaryName(t.profile.names!.capture!.input!);
    await t.api.raw({
      method: decl.method,
      path: decl.path,
      json: { [input]: `Capture without a token ${t.data.word()}` },
      token: null,
      op: 'captureNote',
    });
  },
);

/**
 * The note a capture makes is the run's to delete: found by its word within the search index lag
 * and put in the cleanup ledger. One the target files later than that cannot be found and stays.
 */
async function adoptCaptured(t: Parameters<Parameters<typeof check>[2]>[0], word: string): Promise<void> {
  const found = await t.poll(
    () => t.api.searchNotes({ limit: 5 }, { query: word }),
    (s) => s.status === 200 && ((s.json as { results?: unknown[] }).results?.length ?? 0) > 0,
  );
  for (const item of (found.value.json as { results?: Array<{ id?: unknown }> } | undefined)?.results ?? [])
    if (typeof item.id === 'string') t.kit.ledger.created('note', item.id, t.api.owner);
}
