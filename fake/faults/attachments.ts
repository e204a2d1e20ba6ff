import { DomainError } from '../service/errors.js';
import type { FaultName } from './catalogue.js';
import type { FaultFactory } from './hooks.js';
import { after, around } from './support.js';

export const ATTACHMENTS_FAULTS: Partial<Record<FaultName, FaultFactory>> = {
  'attachments.question.limit-off-by-one': () => ({ policy: { question: { maxChars: 10_001 } } }),
  'attachments.question.page-references-strings': after('askAttachmentQuestion', (_ctx, _call, view) =>
    ({ ...view, page_references: (view.page_references as number[]).map(String) })),
};

/** Faults of issue 10's missing attachment rules (the lead folds them into the area files). */
export const ATTACHMENT_ACCESS_FAULTS: Partial<Record<FaultName, FaultFactory>> = {
  // A server that never built the referenced endpoint: every path under it is an unknown route.
  'attachments.download-url.missing': around('getAttachmentDownloadUrl', () => () => {
    throw new DomainError('not_found', 'no route for GET /v2/note-attachments/{attachment_id}/download-url');
  }),
};
