import { DomainError } from '../service/errors.js';
import type { Fault } from './hooks.js';
import { after, around } from './support.js';

export const ATTACHMENTS_FAULTS = {
  'attachments.question.limit-off-by-one': {
    rules: ['attachments.question.length'],
    does: 'questions of 10,001 characters are accepted',
    hooks: () => ({ policy: { question: { maxChars: 10_001 } } }),
  },
  'attachments.question.page-references-strings': {
    rules: ['attachments.question.response-fields'],
    does: 'page_references holds strings',
    hooks: after('askAttachmentQuestion', (_ctx, _call, view) => ({
      ...view,
      page_references: (view.page_references as number[]).map(String),
    })),
  },
} satisfies Record<string, Fault>;

/** Faults of issue 10's missing attachment rules (the lead folds them into the area files). */
export const ATTACHMENT_ACCESS_FAULTS = {
  // A server that never built the referenced endpoint: every path under it is an unknown route.
  'attachments.download-url.missing': {
    rules: ['attachments.download-url.exists'],
    does: 'the download-url endpoint answers 404 for every attachment',
    hooks: around('getAttachmentDownloadUrl', () => () => {
      throw new DomainError('not_found', 'no route for GET /v2/note-attachments/{attachment_id}/download-url');
    }),
  },
} satisfies Record<string, Fault>;
