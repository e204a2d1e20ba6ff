import { DomainError } from '../service/errors.js';
import type { FaultName } from './catalogue.js';
import type { FaultFactory } from './hooks.js';
import { around } from './support.js';

/** Faults of issue 10's missing attachment rules (the lead folds them into the area files). */
export const NEW_ATTACHMENT_FAULTS: Partial<Record<FaultName, FaultFactory>> = {
  // A server that never built the referenced endpoint: every path under it is an unknown route.
  'attachments.download-url.missing': around('getAttachmentDownloadUrl', () => () => {
    throw new DomainError('not_found', 'no route for GET /v2/note-attachments/{attachment_id}/download-url');
  }),
};
