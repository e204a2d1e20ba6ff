import { describe, expect, it } from 'vitest';
import {
  loadBuiltinProfile,
  loadProfile,
  loadProfileArgument,
  ProfileError,
  parseProfile,
  primaryName,
} from '../../spec/profile.js';

const problemsOf = (text: string): readonly string[] => {
  try {
    parseProfile(text, 'target.yaml');
  } catch (error) {
    expect(error).toBeInstanceOf(ProfileError);
    return (error as ProfileError).problems;
  }
  throw new Error('expected the profile to be refused');
};

describe('target profiles', () => {
  it('loads the built-in profiles', () => {
    expect(loadBuiltinProfile('fake').name).toBe('reference-fake');
    expect(loadBuiltinProfile('fake-divergent').statuses?.validation).toBe(422);
  });

  it('loads the hosted profile by name, with aliases, response-shape fields and capture declared', () => {
    const hosted = loadBuiltinProfile('hosted');
    expect(hosted.names?.notes_search?.response_shape_fields?.include_content).toEqual([
      'include_note_content',
      'include_content',
    ]);
    expect(hosted.endpoints?.capture).toEqual({ method: 'POST', path: '/v2/mem-it' });
    expect(loadProfileArgument('hosted').name).toBe('hosted');
    // The fake/ folder of the package is not a profile file: the built-in name still wins.
    expect(loadProfileArgument('fake').name).toBe('reference-fake');
  });

  it('takes an error body with a message and no kind, and refuses kinds without a kind pointer', () => {
    expect(parseProfile('name: x\nerror_body: { message_pointer: /detail }\n', 'p.yaml').error_body).toEqual({
      message_pointer: '/detail',
    });
    expect(problemsOf('name: x\nerror_body: {}\n')).toEqual([
      '/error_body: must declare kind_pointer, message_pointer or both (got {})',
    ]);
    expect(problemsOf('name: x\nerror_body: { message_pointer: /detail, kinds: { validation: v } }\n')[0]).toMatch(
      /^\/error_body: must have property kind_pointer when property kinds is present/,
    );
  });

  it('says what a name must be, one or a list of aliases', () => {
    expect(primaryName(['page', 'cursor'])).toBe('page');
    expect(problemsOf('name: x\nnames:\n  notes_list:\n    cursor: []\n')).toEqual([
      '/names/notes_list/cursor: must be a name (a letter or _, then letters, digits, _ . - [ ]) or a non-empty list of names (got [])',
    ]);
  });

  it('accepts a profile that declares nothing but its name', () => {
    expect(parseProfile('name: staging\n', 'p.yaml')).toEqual({ name: 'staging' });
  });

  it('returns a frozen profile', () => {
    const profile = loadBuiltinProfile('fake');
    expect(Object.isFrozen(profile.statuses)).toBe(true);
  });

  // These messages are what a user sees; docs/profiles.md shows them.
  it('names the JSON path of an unknown field, and the known field a misspelt one most likely meant', () => {
    expect(problemsOf('name: x\nstatuses:\n  validaton: 422\n')).toEqual([
      '/statuses/validaton: unknown field (did you mean validation?)',
    ]);
    expect(problemsOf('name: x\nnames:\n  notes_list:\n    cursr: page\n')).toEqual([
      '/names/notes_list/cursr: unknown field (did you mean cursor?)',
    ]);
    // Nothing near: no guess.
    expect(problemsOf('name: x\nstatuses:\n  teapot: 418\n')).toEqual(['/statuses/teapot: unknown field']);
  });

  it('says what was expected of a bad value', () => {
    expect(problemsOf('name: x\nstatuses:\n  validation: 200\n')).toEqual([
      '/statuses/validation: must be >= 400 (got 200)',
    ]);
    expect(problemsOf('name: x\nlist_order: newest\n')).toEqual([
      '/list_order: must be one of ["newest_first","oldest_first"] (got "newest")',
    ]);
    expect(problemsOf('name: x\nbudgets:\n  request_budget: many\n')).toEqual([
      '/budgets/request_budget: must be integer (got "many")',
    ]);
  });

  it('names missing required fields', () => {
    expect(problemsOf('statuses: {}\n')).toEqual(['/name: required field is missing']);
    expect(problemsOf('name: x\nendpoints:\n  restore_note: { method: POST }\n')).toEqual([
      '/endpoints/restore_note/path: required field is missing',
    ]);
  });

  it('reports YAML syntax errors with a line and an empty file clearly', () => {
    const [problem] = problemsOf('name: x\nstatuses: [\n');
    expect(problem).toMatch(/^line \d+:\d+: invalid YAML/);
    expect(problemsOf('')).toEqual(['/: the file is empty; a profile needs at least a name']);
    expect(problemsOf('name: a\nname: b\n')[0]).toMatch(/invalid YAML/);
  });

  it('names the file in the error message', () => {
    expect(() => loadProfile('/nonexistent/target.yaml')).toThrow(
      /\/nonexistent\/target\.yaml: invalid target profile\n {2}cannot read the file: there is no such file/,
    );
    expect(() => parseProfile('name: x\nextra: 1\n', 'staging.yaml')).toThrow(
      'staging.yaml: invalid target profile\n  /extra: unknown field',
    );
  });
});
