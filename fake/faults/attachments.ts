import type { FaultName } from './catalogue.js';
import type { FaultFactory } from './hooks.js';
import { after } from './support.js';

export const ATTACHMENTS_FAULTS: Partial<Record<FaultName, FaultFactory>> = {
  'attachments.question.limit-off-by-one': () => ({ policy: { question: { maxChars: 10_001 } } }),
  'attachments.question.page-references-strings': after('askAttachmentQuestion', (_ctx, _call, view) =>
    ({ ...view, page_references: (view.page_references as number[]).map(String) })),
};
