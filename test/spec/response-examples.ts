// Hand-written examples for every response schema of openapi.yaml: one valid body and
// invalid ones that each break exactly one documented property of the shape.

const id = '0b6f7a52-3c1e-4f0e-9d7a-1b2c3d4e5f60';
const id2 = '5a0c1f3e-8d2b-4c6a-9e7f-0a1b2c3d4e5f';
const t = '2025-04-11T04:47:14.457Z';

const noteCore = {
  id,
  title: 'Groceries',
  content: 'Groceries\n- milk',
  created_at: t,
  updated_at: t,
  version: 1,
  collection_ids: [id2],
  request_id: 'req-1',
};
const attachment = {
  attachment_id: id2,
  attachment_kind: 'pdf',
  image_type: null,
  ocr_text: 'text',
  page_count: 3,
  suggested_search: null,
  summary: 'A report',
  visual_description: null,
};
const listItem = {
  id,
  title: 'Groceries',
  snippet: 'milk',
  created_at: t,
  updated_at: t,
  collection_ids: [],
  audio_recording_ids: [],
};
const collection = { id: id2, title: 'Home', description: null, created_at: t, updated_at: t };
const relatedItem = {
  id,
  title: 'Groceries',
  snippet: 'milk',
  preview: 'Groceries - milk',
  score: 0.82,
  created_at: t,
  updated_at: t,
  collection_ids: [id2],
  collections: [{ ...collection, is_shared: false, note_count: 4 }],
};

const without = <T extends object>(o: T, key: keyof T): Partial<T> => {
  const copy = { ...o };
  delete copy[key];
  return copy;
};

export interface ExampleSet {
  valid: unknown;
  invalid: Array<{ why: string; data: unknown }>;
}

export const responseExamples: Record<string, ExampleSet> = {
  NoteCreateResponse: {
    valid: noteCore,
    invalid: [
      { why: 'trashed_at present', data: { ...noteCore, trashed_at: null } },
      { why: 'version missing', data: without(noteCore, 'version') },
      { why: 'version not an integer', data: { ...noteCore, version: 1.5 } },
      { why: 'id not a uuid', data: { ...noteCore, id: 'note-1' } },
      { why: 'created_at without offset', data: { ...noteCore, created_at: '2025-04-11T04:47:14' } },
      { why: 'request_id missing', data: without(noteCore, 'request_id') },
    ],
  },
  NoteReadResponse: {
    valid: { ...noteCore, trashed_at: null, audio_recording_ids: [id2], attachment_metadata: [attachment] },
    invalid: [
      { why: 'trashed_at missing', data: { ...noteCore, audio_recording_ids: [], attachment_metadata: [] } },
      { why: 'attachment_metadata missing', data: { ...noteCore, trashed_at: null, audio_recording_ids: [] } },
      { why: 'audio_recording_ids missing', data: { ...noteCore, trashed_at: null, attachment_metadata: [] } },
      {
        why: 'attachment page_count a string',
        data: {
          ...noteCore,
          trashed_at: null,
          audio_recording_ids: [],
          attachment_metadata: [{ ...attachment, page_count: '3' }],
        },
      },
      {
        why: 'attachment summary missing',
        data: {
          ...noteCore,
          trashed_at: null,
          audio_recording_ids: [],
          attachment_metadata: [without(attachment, 'summary')],
        },
      },
      {
        why: 'trashed_at not a date-time',
        data: { ...noteCore, trashed_at: 'yesterday', audio_recording_ids: [], attachment_metadata: [] },
      },
    ],
  },
  NoteUpdateResponse: {
    valid: { ...noteCore, version: 2, trashed_at: null },
    invalid: [
      { why: 'trashed_at missing', data: noteCore },
      { why: 'collection_ids missing', data: { ...without(noteCore, 'collection_ids'), trashed_at: null } },
    ],
  },
  NoteSetCreatedAtResponse: {
    valid: { ...noteCore, trashed_at: null },
    invalid: [
      { why: 'trashed_at missing', data: noteCore },
      { why: 'content missing', data: { ...without(noteCore, 'content'), trashed_at: null } },
    ],
  },
  NoteListResponse: {
    valid: {
      results: [listItem, { ...listItem, id: id2, content: 'Groceries\n- milk' }],
      total: 7,
      next_page: 'abc',
      request_id: 'r',
    },
    invalid: [
      { why: 'next_page null (must be omitted)', data: { results: [], total: 0, next_page: null, request_id: 'r' } },
      { why: 'item snippet missing', data: { results: [without(listItem, 'snippet')], total: 1, request_id: 'r' } },
      {
        why: 'item audio_recording_ids missing',
        data: { results: [without(listItem, 'audio_recording_ids')], total: 1, request_id: 'r' },
      },
      { why: 'total missing', data: { results: [], request_id: 'r' } },
      {
        why: 'more than 100 results',
        data: { results: Array.from({ length: 101 }, () => listItem), total: 101, request_id: 'r' },
      },
    ],
  },
  NoteSearchResponse: {
    valid: {
      results: [listItem],
      total: 100,
      limit: 20,
      offset: 0,
      has_next_page: true,
      snapshot_id: 's1',
      request_id: 'r',
    },
    invalid: [
      {
        why: 'total above the 100 window',
        data: {
          results: [],
          total: 101,
          limit: 20,
          offset: 0,
          has_next_page: false,
          snapshot_id: 's',
          request_id: 'r',
        },
      },
      {
        why: 'has_next_page a string',
        data: { results: [], total: 0, limit: 20, offset: 0, has_next_page: 'no', snapshot_id: 's', request_id: 'r' },
      },
      {
        why: 'snapshot_id missing',
        data: { results: [], total: 0, limit: 20, offset: 0, has_next_page: false, request_id: 'r' },
      },
      {
        why: 'limit above 50',
        data: { results: [], total: 0, limit: 51, offset: 0, has_next_page: false, snapshot_id: 's', request_id: 'r' },
      },
      {
        why: 'negative offset',
        data: { results: [], total: 0, limit: 20, offset: -1, has_next_page: false, snapshot_id: 's', request_id: 'r' },
      },
    ],
  },
  RelatedNotesResponse: {
    valid: { results: [relatedItem], total: 1, request_id: 'r' },
    invalid: [
      { why: 'score a string', data: { results: [{ ...relatedItem, score: 'high' }], total: 1, request_id: 'r' } },
      { why: 'preview missing', data: { results: [without(relatedItem, 'preview')], total: 1, request_id: 'r' } },
      {
        why: 'collection summary is_shared missing',
        data: {
          results: [{ ...relatedItem, collections: [{ ...collection, note_count: 1 }] }],
          total: 1,
          request_id: 'r',
        },
      },
      {
        why: 'more than 20 results',
        data: { results: Array.from({ length: 21 }, () => relatedItem), total: 21, request_id: 'r' },
      },
    ],
  },
  CollectionWriteResponse: {
    valid: { ...collection, request_id: 'r' },
    invalid: [
      { why: 'note_count present', data: { ...collection, note_count: 0, request_id: 'r' } },
      { why: 'description missing', data: { ...without(collection, 'description'), request_id: 'r' } },
      { why: 'title over 1,000 characters', data: { ...collection, title: 'x'.repeat(1001), request_id: 'r' } },
    ],
  },
  CollectionReadResponse: {
    valid: { ...collection, note_count: 3, request_id: 'r' },
    invalid: [
      { why: 'note_count missing', data: { ...collection, request_id: 'r' } },
      { why: 'note_count negative', data: { ...collection, note_count: -1, request_id: 'r' } },
    ],
  },
  CollectionListResponse: {
    valid: { results: [{ ...collection, note_count: 0 }], total: 1, next_page: null, request_id: 'r' },
    invalid: [
      { why: 'next_page missing (must be null at the end)', data: { results: [], total: 0, request_id: 'r' } },
      { why: 'item note_count missing', data: { results: [collection], total: 1, next_page: null, request_id: 'r' } },
    ],
  },
  CollectionSearchResponse: {
    valid: { results: [{ ...collection, note_count: 2 }], total: 1, request_id: 'r' },
    invalid: [
      { why: 'next_page present', data: { results: [], total: 0, next_page: null, request_id: 'r' } },
      { why: 'item note_count missing', data: { results: [collection], total: 1, request_id: 'r' } },
    ],
  },
  RequestIdOnly: {
    valid: { request_id: 'r' },
    invalid: [
      { why: 'request_id missing', data: {} },
      { why: 'request_id a number', data: { request_id: 7 } },
    ],
  },
  AttachmentQuestionResponse: {
    valid: { answer: 'Yes', attachment_id: id, attachment_kind: 'pdf', page_references: [1, 3], request_id: 'r' },
    invalid: [
      {
        why: 'page_references of strings',
        data: { answer: 'Yes', attachment_id: id, attachment_kind: 'pdf', page_references: ['1'], request_id: 'r' },
      },
      {
        why: 'answer missing',
        data: { attachment_id: id, attachment_kind: 'pdf', page_references: [], request_id: 'r' },
      },
    ],
  },
  QuotaExceededError: {
    valid: {
      error: {
        type: 'quota_exceeded',
        message: 'Note limit reached',
        details: {
          current_plan: 'free',
          free_used: 50,
          free_limit: 50,
          used: 50,
          limit: 50,
          reset_time: '2026-12-01T00:00:00Z',
        },
        upgrade_info: { message: 'Upgrade for more notes', upgrade_url: 'https://example.com/upgrade' },
      },
    },
    invalid: [
      {
        why: 'type not quota_exceeded',
        data: {
          error: {
            type: 'limit',
            message: 'm',
            details: { current_plan: 'free', free_used: 1, free_limit: 1, used: 1, limit: 1, reset_time: 'x' },
            upgrade_info: { message: 'm', upgrade_url: 'u' },
          },
        },
      },
      {
        why: 'a detail value an object',
        data: {
          error: {
            type: 'quota_exceeded',
            message: 'm',
            details: {
              current_plan: { name: 'free' },
              free_used: 1,
              free_limit: 1,
              used: 1,
              limit: 1,
              reset_time: 'x',
            },
            upgrade_info: { message: 'm', upgrade_url: 'u' },
          },
        },
      },
      {
        why: 'upgrade_info missing',
        data: {
          error: {
            type: 'quota_exceeded',
            message: 'm',
            details: { current_plan: 'free', free_used: 1, free_limit: 1, used: 1, limit: 1, reset_time: 'x' },
          },
        },
      },
      {
        why: 'a detail value fractional',
        data: {
          error: {
            type: 'quota_exceeded',
            message: 'm',
            details: { current_plan: 'free', free_used: 1.5, free_limit: 1, used: 1, limit: 1, reset_time: 'x' },
            upgrade_info: { message: 'm', upgrade_url: 'u' },
          },
        },
      },
    ],
  },
};
