import { describe, expect, it } from 'vitest';
import { loadBuiltinProfile, loadProfile, ProfileError, parseProfile } from '../../spec/profile.js';

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

  it('accepts a profile that declares nothing but its name', () => {
    expect(parseProfile('name: staging\n', 'p.yaml')).toEqual({ name: 'staging' });
  });

  it('returns a frozen profile', () => {
    const profile = loadBuiltinProfile('fake');
    expect(Object.isFrozen(profile.statuses)).toBe(true);
  });

  // These messages are what a user sees; the README shows them.
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
