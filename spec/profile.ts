import { readFileSync, statSync } from 'node:fs';
import type { ValidateFunction } from 'ajv';
import { describeAjvError } from './ajv.js';
import { closestKnown } from './did-you-mean.js';
import { keptSchemaValidator } from './kept-validators.js';
import { specFile } from './paths.js';
import { parseYamlText } from './yaml-file.js';

export const REFUSAL_KINDS = [
  'validation',
  'not_found',
  'forbidden',
  'unauthenticated',
  'version_mismatch',
  'trashed',
  'quota_exceeded',
  'unknown_snapshot',
  'cursor_mismatch',
  'rate_limited',
] as const;
export type RefusalKind = (typeof REFUSAL_KINDS)[number];

export interface EndpointDecl {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
}

/**
 * A declared name: one name, or a list whose first entry the kit sends and whose others are
 * aliases the reference fake also accepts (public clients of one service that disagree).
 */
export type Name = string | readonly string[];

/** The name the kit sends: the first of a list. */
export function primaryName(name: Name): string;
export function primaryName(name: Name | undefined): string | undefined;
export function primaryName(name: Name | undefined): string | undefined {
  return typeof name === 'string' || name === undefined ? name : name[0];
}

/** Every spelling a declared name accepts, the one the kit sends first. */
export function allNames(name: Name | undefined): readonly string[] {
  return name === undefined ? [] : typeof name === 'string' ? [name] : name;
}

export interface NotesListNames {
  cursor?: Name;
  collection?: Name;
  include_content?: Name;
  contains_open_tasks?: Name;
  contains_tasks?: Name;
  contains_images?: Name;
  contains_files?: Name;
}
/** The fields of the search response-shape object. */
export interface ResponseShapeNames {
  include_content?: Name;
  include_snippet?: Name;
}
export interface NotesSearchNames {
  collections?: Name;
  response_shape?: Name;
  response_shape_fields?: ResponseShapeNames;
  contains_open_tasks?: Name;
  contains_tasks?: Name;
  contains_images?: Name;
  contains_files?: Name;
}
export interface BoundNames {
  created_after?: Name;
  created_before?: Name;
  updated_after?: Name;
  updated_before?: Name;
}
/** The request fields of the capture operation (endpoints.capture). */
export interface CaptureNames {
  input?: Name;
  instructions?: Name;
  context?: Name;
  timestamp?: Name;
}
export type ContainsKind = 'open_tasks' | 'tasks' | 'images' | 'files';
export const CONTAINS_KINDS: readonly ContainsKind[] = ['open_tasks', 'tasks', 'images', 'files'];

export type FixtureOffer = 'users' | 'grants' | 'quota' | 'attachments' | 'rate_limit';

export interface Profile {
  name: string;
  description?: string;
  statuses?: Partial<Record<RefusalKind, number>>;
  /** At least one of kind_pointer and message_pointer; kinds only with kind_pointer. */
  error_body?: {
    kind_pointer?: string;
    message_pointer?: string;
    kinds?: Partial<Record<Exclude<RefusalKind, 'quota_exceeded'>, string>>;
  };
  names?: {
    notes_list?: NotesListNames;
    notes_search?: NotesSearchNames;
    collections_list?: BoundNames & { cursor?: Name };
    collections_search?: BoundNames & { query?: Name };
    capture?: CaptureNames;
  };
  endpoints?: {
    restore_note?: EndpointDecl;
    remove_note_from_collection?: EndpointDecl;
    attachment_question?: EndpointDecl;
    trash_collection?: EndpointDecl;
    capture?: EndpointDecl;
  };
  /** Query parameters and body fields a route does not know: refused with a validation error (default) or dropped. */
  unknown_fields?: 'refuse' | 'ignore';
  /** Optional request fields sent as null where the document allows no null: refused (default) or read as absent. */
  null_fields?: 'refuse' | 'absent';
  title?: { derivation?: 'as_is' | 'strip_heading_markers' };
  list_order?: 'newest_first' | 'oldest_first';
  content_markers?: { open_task?: string; done_task?: string; image?: string; file?: string };
  capabilities?: {
    secondary_token?: boolean;
    fixtures?: { path_prefix: string; admin_token_env?: string; admin_token?: string; offers?: FixtureOffer[] };
    rate_limit_headers?: { operations?: string[]; names?: string[]; retry_after?: boolean };
  };
  strict_responses?: boolean;
  /** The step (ms) to which the target keeps timestamps it is sent; 1 when unset. */
  timestamp_precision_ms?: number;
  /**
   * How long (ms) after a write search and related notes may still not show it; the kit polls that
   * long before judging. Unset: the kit polls up to 10000 ms.
   */
  search_index_lag_ms?: number;
  clock_tolerance_ms?: number;
  budgets?: {
    property_runs?: number;
    model_runs?: number;
    model_max_commands?: number;
    model_shrink_runs?: number;
    explore_requests?: number;
    max_seed_notes?: number;
    request_budget?: number;
    requests_per_second?: number;
    request_timeout_ms?: number;
    max_response_bytes?: number;
    max_rate_limit_wait_ms?: number;
  };
  fake?: {
    timestamps?: 'utc_millis' | 'offset_micros';
    request_ids?: 'uuid' | 'prefixed';
    extra_fields?: boolean;
    truncate_timestamps?: boolean;
    search_index_lag?: boolean;
    version_on_membership?: boolean;
    strict_lifecycle?: boolean;
  };
}

/** A profile that cannot be used: the file, the JSON path of each bad field and what was expected. */
export class ProfileError extends Error {
  override name = 'ProfileError';
  constructor(
    readonly source: string,
    readonly problems: readonly string[],
  ) {
    super(`${source}: invalid target profile\n  ${problems.join('\n  ')}`);
  }
}

let schemaCache: Record<string, unknown> | undefined;
export function profileSchema(): Record<string, unknown> {
  schemaCache ??= JSON.parse(readFileSync(specFile('profile.schema.json'), 'utf8')) as Record<string, unknown>;
  return schemaCache;
}

let validatorCache: ValidateFunction | undefined;
function validator() {
  validatorCache ??= keptSchemaValidator(profileSchema(), { verbose: true });
  return validatorCache;
}

/** Validates parsed profile data; unknown fields are refused. */
export function validateProfile(data: unknown, source: string): Profile {
  const validate = validator();
  if (!validate(data)) {
    const problems = readable(validate.errors ?? []).map((e) => describeAjvError(e, data));
    throw new ProfileError(source, [...new Set(problems)]);
  }
  return deepFreeze(data as Profile);
}

type AjvError = NonNullable<ReturnType<typeof validator>['errors']>[number];

/**
 * One line per problem: a failed choice (a name or a list of names; kind_pointer or
 * message_pointer) says what it wanted instead of listing every branch it tried.
 */
function readable(errors: readonly AjvError[]): AjvError[] {
  const choices = errors.filter((e) => e.keyword === 'oneOf' || e.keyword === 'anyOf');
  // A name's branches fail at or under its path; error_body's branches fail as missing fields.
  const insideChoice = (e: AjvError) =>
    choices.some(
      (c) =>
        e !== c &&
        (c.keyword === 'oneOf'
          ? e.instancePath === c.instancePath || e.instancePath.startsWith(`${c.instancePath}/`)
          : e.instancePath === c.instancePath && e.keyword === 'required'),
    );
  return errors
    .filter((e) => e.keyword !== 'if' && !insideChoice(e))
    .map((e) => {
      if (e.keyword === 'oneOf' && e.instancePath.startsWith('/names/'))
        return {
          ...e,
          message: 'must be a name (a letter or _, then letters, digits, _ . - [ ]) or a non-empty list of names',
        };
      if (e.keyword === 'anyOf' && e.instancePath === '/error_body')
        return { ...e, message: 'must declare kind_pointer, message_pointer or both' };
      return e;
    });
}

export function parseProfile(text: string, source: string): Profile {
  let data: unknown;
  try {
    data = parseYamlText(text, source);
  } catch (error) {
    throw new ProfileError(source, [(error as Error).message.replace(`${source}:`, 'line ')]);
  }
  if (data === null || data === undefined)
    throw new ProfileError(source, ['/: the file is empty; a profile needs at least a name']);
  return validateProfile(data, source);
}

export function loadProfile(path: string): Profile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ProfileError(path, [`cannot read the file: ${unreadable(error as NodeJS.ErrnoException)}`]);
  }
  return parseProfile(text, path);
}

/** Why a file cannot be read, in words rather than an errno code (ENOENT). */
function unreadable(error: NodeJS.ErrnoException): string {
  const words: Record<string, string> = {
    ENOENT: 'there is no such file',
    EACCES: 'permission denied',
    EPERM: 'permission denied',
    EISDIR: 'it is a directory, not a file',
    ENOTDIR: 'a part of the path is a file, not a directory',
    ELOOP: 'too many symbolic links',
  };
  return words[error.code ?? ''] ?? error.message.replace(/^[A-Z]+: /, '');
}

export const BUILTIN_PROFILES = ['fake', 'fake-divergent', 'hosted'] as const;
/** fake: the reference fake's choices; fake-divergent: other valid ones; hosted: the names public clients of the hosted service send. */
export type BuiltinProfileName = (typeof BUILTIN_PROFILES)[number];
export const isBuiltinProfileName = (value: string): value is BuiltinProfileName =>
  (BUILTIN_PROFILES as readonly string[]).includes(value);

/**
 * A profile named on a command line: a built-in name (fake, fake-divergent, hosted) unless a file
 * of that name exists (a file, not the fake/ folder), else a YAML file path.
 */
export function loadProfileArgument(value: string): Profile {
  if (isBuiltinProfileName(value) && !isFile(value)) return loadBuiltinProfile(value);
  try {
    return loadProfile(value);
  } catch (error) {
    // No such file, and a name like a built-in's: most likely the built-in, mistyped.
    const near = /^[\w-]+$/.test(value) && !isFile(value) ? closestKnown(value, BUILTIN_PROFILES) : undefined;
    if (!(error instanceof ProfileError) || !near) throw error;
    throw new ProfileError(value, [`${error.problems[0]} (did you mean the built-in profile ${near}?)`]);
  }
}

const isFile = (path: string) => statSync(path, { throwIfNoEntry: false })?.isFile() === true;

export function builtinProfilePath(name: BuiltinProfileName): string {
  return specFile('profiles', `${name}.yaml`);
}
export function loadBuiltinProfile(name: BuiltinProfileName): Profile {
  return loadProfile(builtinProfilePath(name));
}

/** The value at a dotted field path (`statuses.validation`), or undefined. */
export function profileField(profile: Profile, dotted: string): unknown {
  let node: unknown = profile;
  for (const key of dotted.split('.')) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/** Whether a dotted field path names a field of profile.schema.json. */
export function isProfileSchemaField(dotted: string): boolean {
  const schema = profileSchema();
  const defs = (schema.$defs ?? {}) as Record<string, Record<string, unknown>>;
  let node: Record<string, unknown> | undefined = schema;
  for (const key of dotted.split('.')) {
    if (!node) return false;
    if (typeof node.$ref === 'string') node = defs[node.$ref.replace('#/$defs/', '')];
    const props = node?.properties as Record<string, Record<string, unknown>> | undefined;
    node = props?.[key];
  }
  return node !== undefined;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}
