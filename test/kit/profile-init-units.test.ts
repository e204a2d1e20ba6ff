import { describe, expect, it } from 'vitest';
import type { Exchange } from '../../kit/core/client.js';
import {
  boundCandidates,
  capturePatterns,
  endpointCandidates,
  nameCandidates,
  responseShapeCandidates,
  snippetFieldCandidates,
} from '../../kit/profile-init/candidates.js';
import { errorBodyFindings, sameAnswerAs } from '../../kit/profile-init/error-body.js';
import {
  type Findings,
  isObserved,
  notObserved,
  observed,
  type RefusalSample,
} from '../../kit/profile-init/findings.js';
import {
  headerName,
  micros,
  rateLimitFindings,
  timestampPrecision,
} from '../../kit/profile-init/headers-and-precision.js';
import { statusFindings } from '../../kit/profile-init/refusals.js';
import { renderProfile } from '../../kit/profile-init/writer.js';
import { parseProfile, REFUSAL_KINDS, type RefusalKind } from '../../spec/profile.js';

/** The inference steps on answers no reference fake gives: other precisions, body shapes and headers. */

const answer = (status: number, json: unknown, headers: Record<string, string> = {}): Exchange => ({
  method: 'GET',
  path: '/v2/notes',
  requestHeaders: {},
  status,
  headers,
  text: JSON.stringify(json),
  json,
  durationMs: 0,
});
const refusal = (kind: RefusalKind, status: number, json: unknown, what = `${kind} request`): RefusalSample => ({
  kind,
  what,
  x: answer(status, json),
});

describe('timestamp precision', () => {
  const sent = (returned: string[]) =>
    [123, 1_456, 2_789, 3_321].map((offset, i) => ({
      field: 'created_at',
      ms: Date.UTC(2010, 4, 6, 7, 8, 9) + offset,
      returned: returned[i],
    }));

  it('reads milliseconds kept, cut to 10 ms and cut to whole seconds', () => {
    expect(
      timestampPrecision(
        sent([
          '2010-05-06T07:08:09.123Z',
          '2010-05-06T07:08:10.456Z',
          '2010-05-06T07:08:11.789Z',
          '2010-05-06T07:08:12.321Z',
        ]),
      ),
    ).toMatchObject({ value: 1 });
    expect(
      timestampPrecision(
        sent([
          '2010-05-06T07:08:09.12Z',
          '2010-05-06T07:08:10.46Z',
          '2010-05-06T07:08:11.78Z',
          '2010-05-06T07:08:12.32Z',
        ]),
      ),
    ).toMatchObject({ value: 10 });
    expect(
      timestampPrecision(
        sent(['2010-05-06T09:08:09+02:00', '2010-05-06T07:08:10Z', '2010-05-06T07:08:11Z', '2010-05-06T07:08:12Z']),
      ),
    ).toMatchObject({ value: 1000 });
  });

  it('leaves a server that ignores the sent instant unobserved', () => {
    const finding = timestampPrecision(
      sent(['2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z']),
    );
    expect(finding).toMatchObject({ why: expect.stringContaining('came back as other instants') });
    expect(timestampPrecision(sent(['yesterday', '', '', '']))).toMatchObject({
      why: expect.stringContaining('not an ISO 8601 timestamp'),
    });
  });

  it('parses offsets with and without a colon and fractions of any length', () => {
    const at = Date.UTC(2025, 3, 11, 4, 47, 14) * 1000;
    expect(micros('2025-04-11T04:47:14.457Z')).toBe(at + 457_000);
    expect(micros('2025-04-11T06:47:14.457123+02:00')).toBe(at + 457_123);
    expect(micros('2025-04-11T06:47:14.457123999+02:00')).toBe(at + 457_123);
    // A basic-format offset in an extended date-time is no ISO 8601 date-time (spec/patterns.ts).
    expect(micros('2025-04-11T06:47:14.457+0200')).toBeUndefined();
    expect(micros('2025-04-11T04:47:14')).toBeUndefined();
  });
});

describe('error body', () => {
  const everyKind = (body: (kind: string) => unknown, statuses: Partial<Record<RefusalKind, number>> = {}) => [
    refusal('validation', statuses.validation ?? 400, body('invalid')),
    refusal('not_found', 404, body('missing'), 'a missing note'),
    refusal('not_found', 404, body('missing'), 'a missing collection'),
    refusal('version_mismatch', 409, body('stale')),
    refusal('trashed', 409, body('trashed'), 'an update'),
    refusal('trashed', 409, body('trashed'), 'a set-created-at'),
  ];
  let counter = 0;

  it('finds the kind and the message in a JSON:API-like errors array, not the request id', () => {
    const samples = everyKind((code) => ({
      errors: [{ id: `req-${counter++}`, code, detail: `The request failed: ${code}` }],
      status: 'error',
    }));
    const found = errorBodyFindings(samples, () => true);
    expect(found.kindPointer).toMatchObject({ value: '/errors/0/code' });
    expect(found.messagePointer).toMatchObject({ value: '/errors/0/detail' });
    expect(found.kinds).toMatchObject({
      validation: { value: 'invalid' },
      not_found: { value: 'missing' },
      trashed: { value: 'trashed' },
    });
  });

  it("reads the kinds without an unauthenticated body of another shape (an auth proxy's)", () => {
    const samples = [
      ...everyKind((type) => ({ error: { type, message: 'it went wrong' } })),
      refusal('unauthenticated', 401, { message: 'Unauthorized' }),
    ];
    const found = errorBodyFindings(samples, () => true);
    expect(found.kindPointer).toMatchObject({ value: '/error/type', how: expect.stringContaining('another shape') });
    expect(found.kinds.unauthenticated).toMatchObject({ why: expect.stringContaining('without /error/type') });
  });

  it('declares no kind pointer when every body says the same word', () => {
    const found = errorBodyFindings(
      everyKind(() => ({ error: 'error', message: 'no' })),
      () => true,
    );
    expect(isObserved(found.kindPointer)).toBe(false);
    expect(isObserved(found.messagePointer)).toBe(false);
  });

  it("keeps a stranger's refusal that looks like a missing note out of statuses.forbidden", () => {
    const missing = refusal('not_found', 404, { code: 'missing' });
    const provoked = { samples: [missing, refusal('forbidden', 404, { code: 'missing' })], why: {} };
    const statuses = statusFindings(provoked, sameAnswerAs(missing.x, observed('/code', '')));
    expect(statuses.forbidden).toMatchObject({ why: expect.stringContaining('like a missing note') });
    const distinct = { samples: [missing, refusal('forbidden', 403, { code: 'forbidden' })], why: {} };
    expect(statusFindings(distinct, sameAnswerAs(missing.x, observed('/code', ''))).forbidden).toMatchObject({
      value: 403,
    });
  });

  it('observes a status only when every refusal of the kind agrees and is a 4xx', () => {
    const provoked = {
      samples: [
        refusal('not_found', 404, {}, 'a missing note'),
        refusal('not_found', 410, {}, 'a missing collection'),
        refusal('validation', 200, {}),
      ],
      why: { quota_exceeded: 'needs a quota' },
    };
    const statuses = statusFindings(provoked, () => false);
    expect(statuses.not_found).toMatchObject({
      why: expect.stringContaining('a missing note answered 404 but a missing collection 410'),
    });
    expect(statuses.validation).toMatchObject({ why: expect.stringContaining('200, which is not a refusal') });
    expect(statuses.quota_exceeded).toEqual({ why: 'needs a quota' });
  });
});

describe('rate-limit headers', () => {
  it('declares the names every carrying operation has, and notes the rest', () => {
    const found = rateLimitFindings([
      {
        op: 'listNotes',
        x: answer(200, {}, { 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '9', 'x-complexity-cost': '3' }),
      },
      {
        op: 'searchNotes',
        x: answer(200, {}, { 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '8', ratelimit: 'limit=10' }),
      },
      { op: 'getNote', x: answer(200, {}, {}) },
      { op: 'createNote', x: answer(404, {}, { 'x-ratelimit-limit': '10' }) },
    ]);
    expect(found.operations).toMatchObject({
      value: ['listNotes', 'searchNotes'],
      how: expect.stringContaining('; getNote did not;'),
    });
    expect(found.names).toMatchObject({ value: ['X-RateLimit-Limit', 'X-RateLimit-Remaining'] });
    expect(found.notes).toEqual([
      'also seen, outside the X-RateLimit-*/X-Complexity-* families: RateLimit',
      'listNotes also carried X-Complexity-Cost',
    ]);
    expect(isObserved(found.retryAfter)).toBe(false);
  });

  it('reads Retry-After from a 429 the probe met, and spells names as the document does', () => {
    const found = rateLimitFindings([{ op: 'listNotes', x: answer(429, {}, { 'retry-after': '2' }) }]);
    expect(found.retryAfter).toMatchObject({ value: true });
    expect(isObserved(found.names)).toBe(false);
    expect(headerName('x-complexity-remaining')).toBe('X-Complexity-Remaining');
  });
});

describe('the written profile', () => {
  const nothing = notObserved<never>('not seen');
  const findings = (over: Partial<Findings> = {}): Findings => ({
    target: 'https://notes.example',
    requests: 12,
    leftBehind: [],
    statuses: Object.fromEntries(REFUSAL_KINDS.map((k) => [k, nothing])) as Findings['statuses'],
    errorBody: { kindPointer: nothing, messagePointer: nothing, kinds: {} },
    title: nothing,
    listOrder: nothing,
    timestampPrecisionMs: nothing,
    rateLimit: { operations: nothing, names: nothing, retryAfter: nothing, notes: [] },
    secondaryToken: nothing,
    names: {
      notes_list: { cursor: nothing, collection: nothing },
      notes_search: { collections: nothing },
      collections_list: { cursor: nothing },
      collections_search: { query: nothing },
      capture: {},
    },
    endpoints: {
      restore_note: nothing,
      remove_note_from_collection: nothing,
      attachment_question: nothing,
      trash_collection: nothing,
      capture: nothing,
    },
    contentMarkers: { open_task: nothing, done_task: nothing, image: nothing, file: nothing },
    unknownFields: nothing,
    ...over,
  });
  const meta = { name: 'staging', date: '2026-11-23' };

  it("loads with the kit's loader when nothing could be observed, every key a placeholder", () => {
    const text = renderProfile(findings(), meta);
    expect(parseProfile(text, 'inferred.yaml')).toEqual({ name: 'staging', description: expect.any(String) });
    for (const line of [
      '# statuses:',
      '#   validation: ? # not observed: not seen',
      '# error_body:',
      '#   kind_pointer: ?',
      '# list_order: ?',
      '# timestamp_precision_ms: ?',
      '# names:',
      '#   notes_list:',
      '#     cursor: ? # not observed: not seen',
      '#   restore_note: ? # not observed: not seen',
      '# unknown_fields: ? # not observed: not seen',
      '#   open_task: ? # not observed: not seen',
    ]) {
      expect(text).toContain(line);
    }
  });

  it('writes observed values with how they were observed and placeholders in their place', () => {
    const text = renderProfile(
      findings({
        statuses: { ...findings().statuses, validation: observed(422, 'POST /v2/notes without content: 422') },
        errorBody: {
          kindPointer: observed('/code', 'one word per kind'),
          messagePointer: nothing,
          kinds: { validation: observed('invalid', 'the create') },
        },
        timestampPrecisionMs: observed(1000, 'cut to seconds'),
        leftBehind: ['0b7e5c1a-0000-4000-8000-000000000001'],
      }),
      meta,
    );
    expect(parseProfile(text, 'inferred.yaml')).toMatchObject({
      statuses: { validation: 422 },
      error_body: { kind_pointer: '/code', kinds: { validation: 'invalid' } },
      timestamp_precision_ms: 1000,
    });
    expect(text).toContain(
      '  validation: 422 # POST /v2/notes without content: 422\n  # not_found: ? # not observed: not seen',
    );
    expect(text).toContain(
      '  kind_pointer: /code # one word per kind\n  # message_pointer: ? # not observed: not seen\n  kinds:',
    );
    expect(text.replace(/\n#\s+/g, ' ')).toContain(
      '1 note(s) it created could not be deleted (0b7e5c1a-0000-4000-8000-000000000001)',
    );
  });
});

describe('names and endpoints in the written profile', () => {
  it('writes a confirmed name and endpoint with their evidence, the rest as placeholders, and loads', () => {
    const nothing = notObserved<never>('no candidate was confirmed: page refused (400)');
    const text = renderProfile(
      {
        target: 'https://notes.example',
        requests: 40,
        leftBehind: [],
        statuses: Object.fromEntries(REFUSAL_KINDS.map((k) => [k, nothing])) as Findings['statuses'],
        errorBody: { kindPointer: nothing, messagePointer: nothing, kinds: {} },
        title: nothing,
        listOrder: nothing,
        timestampPrecisionMs: nothing,
        rateLimit: { operations: nothing, names: nothing, retryAfter: nothing, notes: [] },
        secondaryToken: nothing,
        names: {
          notes_list: { cursor: observed('cursor', 'cursor=<next_page>: served the next note'), collection: nothing },
          notes_search: {
            response_shape: observed('options', 'options: {with_content: true}: asked for content'),
            response_shape_fields: {
              include_content: observed('with_content', 'confirmed with options (see response_shape)'),
              include_snippet: nothing,
            },
          },
          collections_list: {},
          collections_search: {},
          capture: { input: observed('text', "the capture's text was filed as a note"), context: nothing },
        },
        endpoints: {
          restore_note: observed(
            { method: 'PUT', path: '/v2/trash/{note_id}/restore' },
            'answered 200 and a read showed the note active',
          ),
          remove_note_from_collection: nothing,
          attachment_question: nothing,
          trash_collection: nothing,
          capture: observed({ method: 'PUT', path: '/v2/capture' }, 'answered 200 with a request_id'),
        },
        contentMarkers: {
          open_task: observed('- [ ] a task', 'kept by has_open_tasks'),
          done_task: nothing,
          image: nothing,
          file: nothing,
        },
        unknownFields: observed('ignore', 'answered 200'),
      },
      { name: 'staging', date: '2026-11-25' },
    );
    expect(parseProfile(text, 'inferred.yaml')).toMatchObject({
      names: {
        notes_list: { cursor: 'cursor' },
        notes_search: { response_shape: 'options', response_shape_fields: { include_content: 'with_content' } },
        capture: { input: 'text' },
      },
      endpoints: {
        restore_note: { method: 'PUT', path: '/v2/trash/{note_id}/restore' },
        capture: { method: 'PUT', path: '/v2/capture' },
      },
      content_markers: { open_task: '- [ ] a task' },
      unknown_fields: 'ignore',
    });
    expect(text).toContain('    cursor: cursor # cursor=<next_page>: served the next note\n');
    expect(text).toContain('    # collection: ? # not observed: no candidate was confirmed: page refused (400)');
    expect(text).toContain('restore_note: {method: PUT, path: "/v2/trash/{note_id}/restore"}');
    expect(text).toContain('  # remove_note_from_collection: ? # not observed:');
    // An object's fields nest under it, each with its evidence or its placeholder.
    expect(text).toContain('      include_content: with_content # confirmed with options (see response_shape)\n');
    expect(text).toContain('      # include_snippet: ? # not observed:');
    expect(text).toContain('    # context: ? # not observed:');
  });
});

describe('candidates', () => {
  it("offers every shipped profile's names (the reference fake's first) and the conventions, each once", () => {
    const cursors = nameCandidates('notes_list.cursor');
    expect(cursors.slice(0, 2)).toEqual(['page', 'cursor']);
    expect(cursors).toContain('page_token');
    expect(new Set(cursors).size).toBe(cursors.length);
    expect(nameCandidates('notes_list.contains_files', ['zz_files'])[0]).toBe('zz_files');
    expect(nameCandidates('notes_search.response_shape')).toEqual(expect.arrayContaining(['config', 'options']));
    const bounds = boundCandidates('collections_list');
    expect(bounds[0]).toEqual({
      created_after: 'filter_by_created_after',
      created_before: 'filter_by_created_before',
      updated_after: 'filter_by_updated_after',
      updated_before: 'filter_by_updated_before',
    });
    expect(bounds).toContainEqual({
      created_after: 'created_from',
      created_before: 'created_to',
      updated_after: 'updated_from',
      updated_before: 'updated_to',
    });
    expect(endpointCandidates('restore_note')).toContainEqual({ method: 'PUT', path: '/v2/trash/{note_id}/restore' });
    // Only the probe's own note is ever named: no candidate deletes or trashes a note.
    for (const e of [...endpointCandidates('restore_note'), ...endpointCandidates('remove_note_from_collection')])
      expect(`${e.method} ${e.path}`).not.toMatch(/^DELETE \/v2\/notes\/\{note_id\}$|\/trash$/);
  });

  it('offers the response-shape fields and the capture operation, the built-in profiles first', () => {
    // The object and its content field as the profiles pair them (every alias; the reference fake's
    // first, then by file name), then the conventions crossed.
    const shapes = responseShapeCandidates();
    expect(shapes.slice(0, 3)).toEqual([
      { object: 'config', field: 'include_content' },
      { object: 'config', field: 'include_note_content' },
      { object: 'options', field: 'with_content' },
    ]);
    expect(shapes).toContainEqual({ object: 'response_shape', field: 'include_note_content' });
    expect(new Set(shapes.map((c) => `${c.object}.${c.field}`)).size).toBe(shapes.length);
    expect(snippetFieldCandidates('with_snippet')).toEqual(['include_snippet', 'with_snippet']);
    const patterns = capturePatterns();
    expect(patterns[0]).toEqual({
      input: 'input',
      instructions: 'instructions',
      context: 'context',
      timestamp: 'timestamp',
    });
    expect(patterns).toContainEqual({ input: 'text', instructions: 'hint', context: 'about', timestamp: 'seen_at' });
    const captures = endpointCandidates('capture').map((e) => `${e.method} ${e.path}`);
    expect(captures.slice(0, 2)).toEqual(['POST /v2/mem-it', 'PUT /v2/capture']);
    for (const e of captures) expect(e).not.toMatch(/^DELETE|\{/);
  });
});
