import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { loadOpenApi } from '../../spec/openapi.js';
import { parseYamlText } from '../../spec/yaml-file.js';
import { createCollection } from '../service/collections.js';
import type { ServiceContext } from '../service/context.js';
import { createNote } from '../service/notes-write.js';
import type { UserRecord } from '../store/records.js';
import { DataFileError, dataFileError } from './errors.js';

/** Create bodies, as a client would send them: collections first, so notes can name them in collection_titles. */
export interface SeedData {
  collections?: readonly unknown[];
  notes?: readonly unknown[];
}

const SEED_FIELDS = new Set(['collections', 'notes']);

/** Reads a JSON (.json) or YAML file holding `collections` and `notes` arrays of create bodies. */
export function readSeedFile(path: string): SeedData {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new DataFileError(
      `${path}: cannot read the data file (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
    );
  }
  let parsed: unknown;
  try {
    parsed = extname(path).toLowerCase() === '.json' ? JSON.parse(text) : parseYamlText(text, path);
  } catch (error) {
    // The YAML reader names the file, line and column itself.
    const message = (error as Error).message.split('\n')[0]!;
    throw new DataFileError(message.startsWith(path) ? message : `${path}: invalid JSON: ${message}`);
  }
  return checkSeedData(parsed, path);
}

export function checkSeedData(value: unknown, source: string): SeedData {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new DataFileError(`${source}: expected an object with "collections" and "notes" arrays`);
  }
  for (const key of Object.keys(value)) {
    if (!SEED_FIELDS.has(key))
      throw new DataFileError(`${source}: unknown field "${key}" (expected "collections" and "notes")`);
  }
  const data = value as Record<string, unknown>;
  for (const key of SEED_FIELDS) {
    if (data[key] !== undefined && !Array.isArray(data[key]))
      throw new DataFileError(`${source}: "${key}" must be an array of create bodies`);
  }
  return data as SeedData;
}

/**
 * Creates the collections, then the notes, as `user`, through the same operations as POST
 * /v2/collections and POST /v2/notes: every rule of the document applies, and the first body it
 * refuses stops the load with the entry named. Not atomic: the caller refuses to start on error.
 */
export function applySeed(
  ctx: ServiceContext,
  user: UserRecord,
  data: SeedData,
  source: string,
): { collections: number; notes: number } {
  const collections = data.collections ?? [];
  const notes = data.notes ?? [];
  const known = (schema: string) =>
    new Set(
      Object.keys(
        (loadOpenApi().components.schemas as Record<string, { properties?: object }>)[schema]?.properties ?? {},
      ),
    );
  const collectionFields = known('CollectionCreateRequest');
  const noteFields = known('NoteCreateRequest');
  collections.forEach((body, i) => {
    try {
      refuseUnknownFields(body, collectionFields);
      createCollection(ctx, user, body);
    } catch (error) {
      throw dataFileError(source, `collections[${i}]`, error);
    }
  });
  notes.forEach((body, i) => {
    try {
      refuseUnknownFields(body, noteFields);
      createNote(ctx, user, body);
    } catch (error) {
      throw dataFileError(source, `notes[${i}]`, error);
    }
  });
  return { collections: collections.length, notes: notes.length };
}

/** As the HTTP layer does by default: a misspelt field is an error, not silently dropped. */
function refuseUnknownFields(body: unknown, known: ReadonlySet<string>): void {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return;
  const unknown = Object.keys(body).find((key) => !known.has(key));
  if (unknown !== undefined)
    throw new Error(`unknown field ${JSON.stringify(unknown)} (the create request has ${[...known].join(', ')})`);
}
