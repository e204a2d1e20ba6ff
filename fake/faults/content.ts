import { DomainError } from '../service/errors.js';
import type { Fault } from './hooks.js';
import { around } from './support.js';

const flatTitle = (content: string) => content.replace(/\s+/g, ' ').trim().slice(0, 60);

export const CONTENT_FAULTS = {
  // The title is cut from the whole content, line breaks flattened, whenever content is stored.
  'notes.title.spans-lines': {
    rules: ['notes.title.first-line'],
    does: 'the title is the first 60 characters of the whole content, line breaks flattened',
    hooks: () => ({
      store: {
        insertNote: (next) => (note) => {
          (note as { title: string }).title = flatTitle(note.content);
          next(note);
        },
        setNoteContent: (next) => (note, fields) => next(note, { ...fields, title: flatTitle(fields.content) }),
      },
    }),
  },
  'notes.title.heading-derivation-flipped': {
    rules: ['notes.title.heading-markers'],
    does: 'titles use the other heading derivation than the profile declares',
    hooks: () => ({
      settings: (s) => ({ ...s, titleDerivation: s.titleDerivation === 'as_is' ? 'strip_heading_markers' : 'as_is' }),
    }),
  },
  // The quota refusal loses its upgrade_info.
  'quota.body-incomplete': {
    rules: ['quota.create.exceeded-body'],
    does: 'the quota_exceeded body has no upgrade_info',
    hooks: around('createNote', (next) => (ctx, call) => {
      try {
        return next(ctx, call);
      } catch (error) {
        const body = error instanceof DomainError && error.kind === 'quota_exceeded' ? error.body?.error : undefined;
        if (body && typeof body === 'object') delete (body as Record<string, unknown>).upgrade_info;
        throw error;
      }
    }),
  },
} satisfies Record<string, Fault>;
