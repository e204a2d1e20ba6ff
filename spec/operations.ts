// Generated from spec/openapi.yaml by test/spec/generated-files.test.ts: do not edit; run `npm run gen`.

/**
 * The API's operations (fixture API aside): operationId -> method and path template. `endpoint`
 * names the profile's endpoints key where the document does not show the path (the default here).
 */
export const OPERATIONS = {
  listNotes: { method: 'GET', path: '/v2/notes' },
  createNote: { method: 'POST', path: '/v2/notes' },
  getNote: { method: 'GET', path: '/v2/notes/{note_id}' },
  updateNote: { method: 'PATCH', path: '/v2/notes/{note_id}' },
  deleteNote: { method: 'DELETE', path: '/v2/notes/{note_id}' },
  setNoteCreatedAt: { method: 'PATCH', path: '/v2/notes/{note_id}/created-at' },
  searchNotes: { method: 'POST', path: '/v2/notes/search' },
  getRelatedNotes: { method: 'GET', path: '/v2/notes/{note_id}/related-notes' },
  trashNote: { method: 'POST', path: '/v2/notes/{note_id}/trash' },
  restoreNote: { method: 'POST', path: '/v2/notes/{note_id}/restore', endpoint: 'restore_note' },
  captureNote: { method: 'POST', path: '/v2/mem-it', endpoint: 'capture' },
  listCollections: { method: 'GET', path: '/v2/collections' },
  createCollection: { method: 'POST', path: '/v2/collections' },
  searchCollections: { method: 'POST', path: '/v2/collections/search' },
  getCollection: { method: 'GET', path: '/v2/collections/{collection_id}' },
  updateCollection: { method: 'PATCH', path: '/v2/collections/{collection_id}' },
  deleteCollection: { method: 'DELETE', path: '/v2/collections/{collection_id}' },
  trashCollection: { method: 'POST', path: '/v2/collections/{collection_id}/trash', endpoint: 'trash_collection' },
  addNoteToCollection: { method: 'PUT', path: '/v2/collections/{collection_id}/notes/{note_id}' },
  removeNoteFromCollection: {
    method: 'DELETE',
    path: '/v2/collections/{collection_id}/notes/{note_id}',
    endpoint: 'remove_note_from_collection',
  },
  moveNote: { method: 'POST', path: '/v2/collections/{source_collection_id}/notes/{note_id}/move' },
  getAttachmentDownloadUrl: { method: 'GET', path: '/v2/note-attachments/{attachment_id}/download-url' },
  askAttachmentQuestion: {
    method: 'POST',
    path: '/v2/note-attachments/{attachment_id}/question',
    endpoint: 'attachment_question',
  },
} as const;

export type OperationId = keyof typeof OPERATIONS;
