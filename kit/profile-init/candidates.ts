import { readdirSync } from 'node:fs';
import { specFile } from '../../spec/paths.js';
import {
  allNames,
  type EndpointDecl,
  loadProfile,
  type Name,
  type Profile,
  primaryName,
  profileField,
} from '../../spec/profile.js';

/**
 * What `profile init` tries for each name the document does not show, likeliest first: the
 * names of every profile under spec/profiles/ (read at run time, so a new built-in profile adds
 * its names without an edit here), then the common conventions below. A candidate is only a
 * guess to try: the probe keeps one only when the target's behaviour confirms it.
 *
 * The conventions are tables with one candidate a line, so that adding one is one line.
 */

/** `slot name`: a name for the slot (a dotted path under `names` of profile.schema.json). */
const NAME_CONVENTIONS = `
notes_list.cursor                     page
notes_list.cursor                     cursor
notes_list.cursor                     page_token
notes_list.cursor                     next
notes_list.cursor                     next_page
notes_list.cursor                     after
notes_list.collection                 collection_id
notes_list.collection                 collection
notes_list.collection                 filter_by_collection_id
notes_list.contains_open_tasks        contains_open_tasks
notes_list.contains_open_tasks        has_open_tasks
notes_list.contains_open_tasks        filter_by_contains_open_tasks
notes_list.contains_tasks             contains_tasks
notes_list.contains_tasks             has_tasks
notes_list.contains_tasks             filter_by_contains_tasks
notes_list.contains_images            contains_images
notes_list.contains_images            has_images
notes_list.contains_images            filter_by_contains_images
notes_list.contains_files             contains_files
notes_list.contains_files             has_files
notes_list.contains_files             filter_by_contains_files
notes_list.include_content            include_note_content
notes_list.include_content            include_content
notes_list.include_content            with_content
notes_search.collections              collection_ids
notes_search.collections              filter_by_collection_ids
notes_search.collections              collections
notes_search.contains_open_tasks      contains_open_tasks
notes_search.contains_open_tasks      filter_by_contains_open_tasks
notes_search.contains_open_tasks      has_open_tasks
notes_search.contains_tasks           contains_tasks
notes_search.contains_tasks           filter_by_contains_tasks
notes_search.contains_tasks           has_tasks
notes_search.contains_images          contains_images
notes_search.contains_images          filter_by_contains_images
notes_search.contains_images          has_images
notes_search.contains_files           contains_files
notes_search.contains_files           filter_by_contains_files
notes_search.contains_files           has_files
notes_search.response_shape           config
notes_search.response_shape           options
notes_search.response_shape           response_shape
collections_list.cursor               page
collections_list.cursor               cursor
collections_list.cursor               page_token
collections_list.cursor               after
collections_search.query              query
collections_search.query              q
collections_search.query              text
`;

/**
 * Fields inside the response-shape object (not shown either), one `slot name` a line: the object's
 * name and its include_content field are confirmed together (content appears), include_snippet
 * after them.
 */
const RESPONSE_SHAPE_FIELD_CONVENTIONS = `
include_content   include_content
include_content   include_note_content
include_content   with_content
include_snippet   include_snippet
include_snippet   with_snippet
`;

/**
 * The capture operation's request fields, one pattern a line (input instructions context
 * timestamp): a target names them after one convention, so a pattern is sent whole.
 */
const CAPTURE_CONVENTIONS = `
input     instructions  context  timestamp
text      instructions  context  timestamp
content   instructions  context  timestamp
`;

/** The four time bounds of a list or search, as one pattern a line: created_after created_before updated_after updated_before. */
const BOUND_CONVENTIONS = `
filter_by_created_after  filter_by_created_before  filter_by_updated_after  filter_by_updated_before
created_after            created_before            updated_after            updated_before
created_from             created_to                updated_from            updated_to
created_since            created_until             updated_since           updated_until
`;

/** `operation METHOD path`: where the restore and remove-from-collection operations may live. */
const ENDPOINT_CONVENTIONS = `
restore_note                  POST   /v2/notes/{note_id}/restore
restore_note                  POST   /v2/notes/{note_id}/untrash
restore_note                  POST   /v2/trash/{note_id}/restore
remove_note_from_collection   DELETE /v2/collections/{collection_id}/notes/{note_id}
remove_note_from_collection   POST   /v2/collections/{collection_id}/notes/{note_id}/remove
capture                       POST   /v2/capture
capture                       POST   /v2/notes/capture
`;

export const BOUND_KEYS = ['created_after', 'created_before', 'updated_after', 'updated_before'] as const;
export type BoundKey = (typeof BOUND_KEYS)[number];
export type BoundPattern = Record<BoundKey, string>;
export type ProbedEndpoint = 'restore_note' | 'remove_note_from_collection' | 'capture';
export const CAPTURE_KEYS = ['input', 'instructions', 'context', 'timestamp'] as const;
export type CaptureKey = (typeof CAPTURE_KEYS)[number];
export type CapturePattern = Record<CaptureKey, string>;
/** A response-shape object and the field inside it that asks for content: `config.include_content`. */
export interface ShapeCandidate {
  readonly object: string;
  readonly field: string;
}

const rows = (table: string) =>
  table
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter((cells) => cells[0] !== '');

/** Every profile shipped under spec/profiles/: the reference fake's first, then by file name. */
function shippedProfiles(): Profile[] {
  const dir = specFile('profiles');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .sort((a, b) => Number(b === 'fake.yaml') - Number(a === 'fake.yaml') || a.localeCompare(b))
    .map((f) => loadProfile(`${dir}/${f}`));
}

function unique<T>(items: T[], key: (t: T) => string = String): T[] {
  const seen = new Set<string>();
  return items.filter((t) => {
    if (seen.has(key(t))) return false;
    seen.add(key(t));
    return true;
  });
}

/** Candidates for one name slot ("notes_list.cursor"), profiles' first; `first` (an inferred sibling's) before all. */
export function nameCandidates(slot: string, first: readonly (string | undefined)[] = []): string[] {
  // A profile that lists aliases (fake.yaml: the public clients') offers its own name, the first.
  const fromProfiles = shippedProfiles().map((p) => primaryName(profileField(p, `names.${slot}`) as Name | undefined));
  const fromTable = rows(NAME_CONVENTIONS)
    .filter(([s]) => s === slot)
    .map(([, name]) => name);
  return unique([...first, ...fromProfiles, ...fromTable].filter((n): n is string => typeof n === 'string'));
}

const fieldConventions = (slot: string) =>
  rows(RESPONSE_SHAPE_FIELD_CONVENTIONS)
    .filter(([s]) => s === slot)
    .map(([, name]) => name!);

/**
 * Response-shape objects with their include-content field: each built-in profile's pairs first
 * (every alias of its field), then every object convention with every field convention.
 */
export function responseShapeCandidates(): ShapeCandidate[] {
  const fromProfiles = shippedProfiles().flatMap((p) => {
    const search = p.names?.notes_search;
    const object = search?.response_shape;
    if (typeof object !== 'string') return [];
    return allNames(search?.response_shape_fields?.include_content).map((field) => ({ object, field }));
  });
  const objects = rows(NAME_CONVENTIONS)
    .filter(([slot]) => slot === 'notes_search.response_shape')
    .map(([, name]) => name!);
  const fromTable = objects.flatMap((object) =>
    fieldConventions('include_content').map((field) => ({ object, field })),
  );
  return unique([...fromProfiles, ...fromTable], (c) => `${c.object}.${c.field}`);
}

/** Names of the include-snippet field: the profiles', then `sibling` (named like the confirmed content field), the conventions. */
export function snippetFieldCandidates(sibling?: string): string[] {
  const fromProfiles = shippedProfiles().flatMap((p) =>
    allNames(p.names?.notes_search?.response_shape_fields?.include_snippet),
  );
  return unique([...fromProfiles, sibling, ...fieldConventions('include_snippet')].filter((n) => n !== undefined));
}

/** Capture field patterns: each built-in profile's (the names it sends), then the conventions. */
export function capturePatterns(): CapturePattern[] {
  const fromProfiles = shippedProfiles().flatMap((p) => {
    const names = p.names?.capture;
    const first = (k: CaptureKey) => allNames(names?.[k])[0];
    return CAPTURE_KEYS.every((k) => first(k) !== undefined)
      ? [Object.fromEntries(CAPTURE_KEYS.map((k) => [k, first(k)!])) as CapturePattern]
      : [];
  });
  const fromTable = rows(CAPTURE_CONVENTIONS).map(
    (cells) => Object.fromEntries(CAPTURE_KEYS.map((k, i) => [k, cells[i]!])) as CapturePattern,
  );
  return unique([...fromProfiles, ...fromTable], (p) => CAPTURE_KEYS.map((k) => p[k]).join(' '));
}

/** Candidate patterns for the four bounds of `section` (collections_list or collections_search). */
export function boundCandidates(section: string, first: readonly BoundPattern[] = []): BoundPattern[] {
  const fromProfiles = shippedProfiles().flatMap((p) => {
    const names = profileField(p, `names.${section}`) as Partial<BoundPattern> | undefined;
    return names && BOUND_KEYS.every((k) => typeof names[k] === 'string') ? [names as BoundPattern] : [];
  });
  const fromTable = rows(BOUND_CONVENTIONS).map(
    (cells) => Object.fromEntries(BOUND_KEYS.map((k, i) => [k, cells[i]!])) as BoundPattern,
  );
  const pick = (n: BoundPattern): BoundPattern => Object.fromEntries(BOUND_KEYS.map((k) => [k, n[k]])) as BoundPattern;
  return unique([...first, ...fromProfiles, ...fromTable].map(pick), (n) => BOUND_KEYS.map((k) => n[k]).join(' '));
}

export function endpointCandidates(operation: ProbedEndpoint): EndpointDecl[] {
  const fromProfiles = shippedProfiles()
    .map((p) => p.endpoints?.[operation])
    .filter((e): e is EndpointDecl => e !== undefined);
  const fromTable = rows(ENDPOINT_CONVENTIONS)
    .filter(([op]) => op === operation)
    .map(([, method, path]) => ({ method: method as EndpointDecl['method'], path: path! }));
  return unique([...fromProfiles, ...fromTable], (e) => `${e.method} ${e.path}`);
}
