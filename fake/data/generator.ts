import { getHeapStatistics } from 'node:v8';
import { generateSync, type JsonSchema, type Random } from 'json-schema-faker';
import { loadOpenApi } from '../../spec/openapi.js';
import { DataFileError } from './errors.js';
import type { SeedData } from './seed-file.js';

/**
 * Realistic data for client development, made by json-schema-faker from the create-request
 * schemas of spec/openapi.yaml: the document decides which fields a body has (and which are
 * required); this module decides what their values look like (titles from words, markdown with
 * tasks, images and file links, timestamps spread over three years). Same seed, same data.
 */

const WORDS = (
  'meeting project budget review draft plan idea garden recipe travel invoice client design research book ' +
  'reading list summer winter launch release roadmap team hiring interview notes weekly monthly goals health workout ' +
  'groceries dinner lunch breakfast trip flight hotel museum concert birthday gift family friends school homework exam ' +
  'lecture paper thesis chapter outline sketch photo camera music guitar piano lesson practice budget tax receipt ' +
  'contract lease apartment repair kitchen paint window garden seeds harvest market coffee tea bakery bread cheese ' +
  'mountain river lake beach forest city station bike car insurance doctor dentist appointment call email follow ' +
  'question answer decision risk issue bug feature test deploy server database backup security password update ' +
  'migration sprint retro demo customer feedback survey report metrics dashboard quarterly annual strategy vision'
).split(' ');
const FILE_EXTENSIONS = ['pdf', 'docx', 'xlsx', 'pptx', 'csv', 'zip', 'txt'];
const IMAGE_EXTENSIONS = ['png', 'jpg', 'gif', 'webp'];
const COLLECTION_KINDS = ['Project', 'Notes', 'Ideas', 'Archive', 'Reading', 'Planning', 'Journal', 'Research'];

/** Timestamps fall in the three years before this instant (or before now, if that is earlier). */
const ANCHOR = Date.parse('2025-06-01T00:00:00.000Z');
const SPREAD_MS = 3 * 365 * 86_400_000;
const CHUNK = 1_000;

const capital = (word: string) => word[0]!.toUpperCase() + word.slice(1);
const words = (r: Random, min: number, max: number) =>
  Array.from({ length: r.int(min, max) }, () => r.pick(WORDS)).join(' ');

function markdown(r: Random): string {
  const title = capital(words(r, 2, 6));
  const blocks = [r.bool(0.3) ? `# ${title}` : title];
  for (let i = r.int(1, 3); i > 0; i--) blocks.push(`${capital(words(r, 6, 30))}.`);
  if (r.bool(0.35))
    blocks.push(
      Array.from({ length: r.int(1, 5) }, () => `- [${r.bool(0.4) ? 'x' : ' '}] ${words(r, 2, 6)}`).join('\n'),
    );
  if (r.bool(0.15))
    blocks.push(
      `![${words(r, 1, 3)}](https://images.example.com/${r.pick(WORDS)}-${r.int(1, 9999)}.${r.pick(IMAGE_EXTENSIONS)})`,
    );
  if (r.bool(0.15))
    blocks.push(
      `See [${capital(words(r, 1, 3))}](https://files.example.com/${r.pick(WORDS)}-${r.int(1, 9999)}.${r.pick(FILE_EXTENSIONS)}).`,
    );
  return blocks.join('\n\n');
}

function instant(r: Random, latest: number): string {
  return new Date(latest - r.int(0, SPREAD_MS / 1000) * 1000 - r.int(0, 999)).toISOString();
}

type Schemas = Record<string, { required?: string[]; properties?: Record<string, unknown> }>;

/**
 * A create-request schema of the document with each value field given one of the generator's
 * formats; fields without one (ids, which the fake assigns) are left out.
 */
function requestSchema(name: string, formats: Record<string, string>, arrays: Record<string, number>): JsonSchema {
  const schema = (loadOpenApi().components.schemas as Schemas)[name];
  if (!schema?.properties) throw new DataFileError(`openapi.yaml has no ${name} schema to generate from`);
  const properties: Record<string, JsonSchema> = {};
  for (const [field, format] of Object.entries(formats)) {
    if (!(field in schema.properties))
      throw new DataFileError(`openapi.yaml: ${name} has no field ${field} to generate`);
    const string: JsonSchema = { type: 'string', format };
    properties[field] =
      field in arrays ? { type: 'array', items: string, minItems: 0, maxItems: arrays[field]! } : string;
  }
  const required = (schema.required ?? []).filter((f) => f in properties);
  return { type: 'object', required, properties, additionalProperties: false };
}

/** How many collections go with `notes` generated notes: one per 50 notes, at least 3, at most 2,000. */
export function collectionCount(notes: number): number {
  return Math.min(2_000, Math.max(3, Math.round(notes / 50)));
}

/**
 * Generates `count` notes and their collections, in chunks handed to `sink` (so 100,000 notes are
 * never all held as bodies at once). `now` caps the timestamps: nothing is in the future.
 */
export function generateSeed(count: number, seed: number, now: number, sink: (chunk: SeedData) => void): void {
  const latest = Math.min(ANCHOR, now);
  const collectionTitles: string[] = [];
  const formats = {
    'collection-title': (r: Random) => `${capital(r.pick(WORDS))} ${r.pick(COLLECTION_KINDS)} ${r.int(1, 999)}`,
    'collection-description': (r: Random) => `${capital(words(r, 4, 16))}.`,
    'note-markdown': markdown,
    'past-date-time': (r: Random) => instant(r, latest),
    // Mostly titles of the generated collections (any case), now and then one that matches none.
    'linked-title': (r: Random) =>
      r.bool(0.1) || collectionTitles.length === 0
        ? `${capital(r.pick(WORDS))} inbox`
        : r.bool(0.2)
          ? r.pick(collectionTitles).toLowerCase()
          : r.pick(collectionTitles),
  };
  const collectionSchema = requestSchema(
    'CollectionCreateRequest',
    {
      title: 'collection-title',
      description: 'collection-description',
      created_at: 'past-date-time',
    },
    {},
  );
  const noteSchema = requestSchema(
    'NoteCreateRequest',
    {
      content: 'note-markdown',
      collection_titles: 'linked-title',
      created_at: 'past-date-time',
      updated_at: 'past-date-time',
    },
    { collection_titles: 2 },
  );
  const batch = (
    schema: JsonSchema,
    size: number,
    chunkSeed: number,
    optionals: number,
  ): Array<Record<string, unknown>> =>
    generateSync(
      { type: 'array', minItems: size, maxItems: size, items: schema },
      { seed: chunkSeed, optionalsProbability: optionals, formats },
    ) as Array<Record<string, unknown>>;

  const collections = batch(collectionSchema, collectionCount(count), mix(seed, 0), 0.7);
  for (const c of collections) collectionTitles.push(c.title as string);
  sink({ collections, notes: [] });
  const memory = new MemoryGuard(count);
  for (let done = 0, chunk = 1; done < count; done += CHUNK, chunk++) {
    const notes = batch(noteSchema, Math.min(CHUNK, count - done), mix(seed, chunk), 0.9);
    for (const note of notes) orderTimestamps(note);
    // As a client's request would arrive: flat strings (the generator's are concatenation trees).
    sink(JSON.parse(JSON.stringify({ notes })) as SeedData);
    memory.check(done + notes.length);
  }
}

/** Stop while the heap still has room: V8 kills the process when it runs out. */
const HEAP_SHARE = 0.85;
/** Notes generated before their memory is projected (fewer would measure start-up, not notes). */
const PROJECT_AFTER = 100_000;

/**
 * Ends a generation that will not fit in this process's heap with one line naming the limit,
 * instead of a V8 out-of-memory abort minutes later: from PROJECT_AFTER notes on, the heap used
 * per note so far projects the whole run; at any point, a heap past HEAP_SHARE of its limit stops it.
 */
class MemoryGuard {
  private readonly start = getHeapStatistics().used_heap_size;
  private nextProjection = PROJECT_AFTER;

  constructor(private readonly count: number) {}

  check(done: number): void {
    if (done >= this.count) return;
    const { used_heap_size: used, heap_size_limit: limit } = getHeapStatistics();
    const budget = limit * HEAP_SHARE;
    if (used > budget) this.refuse(limit, Math.max(0, done - 1_000), `the heap was full after ${done} notes`);
    if (done < this.nextProjection) return;
    this.nextProjection += PROJECT_AFTER;
    const perNote = Math.max(1, (used - this.start) / done);
    if (this.start + perNote * this.count > budget * 1.1) {
      const fit = Math.floor((budget - this.start) / perNote / 1_000) * 1_000;
      this.refuse(limit, fit, `about ${Math.round(perNote)} bytes a note`);
    }
  }

  private refuse(limit: number, fit: number, why: string): never {
    const mib = Math.round(limit / 1_048_576);
    throw new DataFileError(
      `--generate ${this.count}: does not fit in this process's ${mib} MiB heap (${why}); ` +
        `about ${fit} notes fit, or raise the limit with NODE_OPTIONS=--max-old-space-size=<MiB>`,
    );
  }
}

/** A note is updated after it is created. */
function orderTimestamps(note: Record<string, unknown>): void {
  const { created_at: created, updated_at: updated } = note;
  if (typeof created === 'string' && typeof updated === 'string' && updated < created) {
    note.created_at = updated;
    note.updated_at = created;
  }
}

/** A per-chunk seed: chunks are independent, so the data does not depend on how it is consumed. */
function mix(seed: number, chunk: number): number {
  let h = (seed ^ Math.imul(chunk + 1, 0x9e3779b1)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b) >>> 0;
  return (h ^ (h >>> 13)) >>> 0 || 1;
}
