import { describe, expect, it } from 'vitest';
import type { Exchange } from '../../kit/core/client.js';
import { errorBodyFindings } from '../../kit/profile-init/error-body.js';
import { type Findings, isObserved, notObserved, type RefusalSample } from '../../kit/profile-init/findings.js';
import { renderProfile } from '../../kit/profile-init/writer.js';
import { parseProfile, REFUSAL_KINDS, type RefusalKind } from '../../spec/profile.js';

/** `profile init` on error bodies with a message and no kind: FastAPI's, and the other common shapes. */

const refusal = (kind: RefusalKind, status: number, json: unknown): RefusalSample => ({
  kind,
  what: `${kind} request`,
  x: {
    method: 'POST',
    path: '/v2/notes',
    requestHeaders: {},
    status,
    headers: {},
    text: JSON.stringify(json),
    json,
    durationMs: 0,
  } as Exchange,
});

const found = (body: (kind: RefusalKind) => unknown) =>
  errorBodyFindings(
    (['validation', 'not_found', 'not_found', 'version_mismatch', 'trashed'] as const).map((k) =>
      refusal(k, k === 'validation' ? 422 : 404, body(k)),
    ),
    () => true,
  );

describe('error bodies without a kind', () => {
  it('finds FastAPI’s detail: a string for most refusals, a list of entries for a validation failure', () => {
    const fastapi = found((kind) =>
      kind === 'validation'
        ? { detail: [{ loc: ['body', 'content'], msg: 'Field required', type: 'missing' }] }
        : { detail: kind === 'not_found' ? 'Not Found' : 'The note was changed meanwhile' },
    );
    expect(isObserved(fastapi.kindPointer)).toBe(false);
    expect(fastapi.messagePointer).toMatchObject({ value: '/detail' });
    expect(fastapi.kinds).toEqual({});
  });

  it('finds {"message": ...} and {"errors": [...]}', () => {
    expect(found((k) => ({ message: `It failed: ${k}` })).messagePointer).toMatchObject({ value: '/message' });
    expect(found((k) => ({ errors: [`It failed: ${k}`] })).messagePointer).toMatchObject({ value: '/errors' });
  });

  it('writes a profile with message_pointer alone that the kit loads', () => {
    const nothing = notObserved<never>('not seen');
    const findings: Findings = {
      target: 'https://notes.example',
      requests: 12,
      leftBehind: [],
      statuses: Object.fromEntries(REFUSAL_KINDS.map((k) => [k, nothing])) as Findings['statuses'],
      errorBody: found(() => ({ detail: 'Not Found here' })),
      title: nothing,
      listOrder: nothing,
      timestampPrecisionMs: nothing,
      rateLimit: { operations: nothing, names: nothing, retryAfter: nothing, notes: [] },
      secondaryToken: nothing,
      names: { notes_list: {}, notes_search: {}, collections_list: {}, collections_search: {}, capture: {} },
      endpoints: {
        restore_note: nothing,
        remove_note_from_collection: nothing,
        attachment_question: nothing,
        trash_collection: nothing,
        capture: nothing,
      },
      contentMarkers: { open_task: nothing, done_task: nothing, image: nothing, file: nothing },
      unknownFields: nothing,
    };
    const text = renderProfile(findings, { name: 'fastapi', date: '2026-11-25' });
    expect(parseProfile(text, 'inferred.yaml').error_body).toEqual({ message_pointer: '/detail' });
    expect(text).toMatch(/# kind_pointer: \? # not observed: no pointer holds a one-word kind/);
  });
});
