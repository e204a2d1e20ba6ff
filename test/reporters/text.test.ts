import { describe, expect, it } from 'vitest';
import { RuleProgress } from '../../reporters/progress.js';
import { clip, formatProgress, plainReason, plural, showInvisible } from '../../reporters/text.js';

describe('plainReason', () => {
  it('drops the matcher vocabulary', () => {
    expect(plainReason('expected false to be true // Object.is equality')).toBe(
      'a condition the check asserts did not hold (the check gave no message)',
    );
    expect(plainReason('the list is sorted by updated_at: expected false to be true')).toBe(
      'the list is sorted by updated_at',
    );
    expect(plainReason('expected 200 to be 409 // Object.is equality')).toBe('got 200, expected 409');
    expect(plainReason('status of POST /v2/notes: expected 200 to be 409')).toBe(
      'status of POST /v2/notes: got 200, expected 409',
    );
    expect(plainReason('AssertionError: expected { a: 1 } to deeply equal { a: 2 }')).toBe(
      'got { a: 1 }, expected { a: 2 }',
    );
    expect(plainReason('title came back as "A"')).toBe('title came back as "A"');
  });

  it('shows trailing blanks, CR, tabs and zero-width characters escaped', () => {
    expect(plainReason("expected 'hello ' to be 'hello' // Object.is equality")).toBe(
      "got 'hello\\u0020', expected 'hello'",
    );
    expect(showInvisible('line\r\nnext\tcol\u00a0nbsp\u200bzw')).toBe('line\\r\nnext\\tcol\\u00a0nbsp\\u200bzw');
    expect(showInvisible('a \u0007 bell')).toBe('a \\u0007 bell');
    // An apostrophe inside words is not a quoted literal.
    expect(showInvisible("don't stop 'here'")).toBe("don't stop 'here'");
    expect(showInvisible('title "A  " kept')).toBe('title "A\\u0020\\u0020" kept');
  });
});

describe('clip and formatProgress', () => {
  it('clips with the full length', () => {
    expect(clip('abcdef', 10)).toBe('abcdef');
    expect(clip('x'.repeat(200_001), 5)).toBe('xxxxx... (200,001 characters in all)');
  });

  it('formats progress as N/M checks with the elapsed time', () => {
    expect(formatProgress(37, 266, 42_900)).toBe('37/266 rules, 0:42 elapsed');
    expect(formatProgress(266, 266, 3_725_000)).toBe('266/266 rules, 1:02:05 elapsed');
    expect(formatProgress(5, 0, 61_000)).toBe('5 rules, 1:01 elapsed');
    expect(formatProgress(1, 1, 1_000)).toBe('1/1 rule, 0:01 elapsed');
  });
});

describe('plural', () => {
  it('puts the noun in the number of its count', () => {
    expect([0, 1, 2].map((n) => plural(n, 'request'))).toEqual(['0 requests', '1 request', '2 requests']);
    expect(plural(1, 'resource')).toBe('1 resource');
    expect(plural(3, 'child', 'children')).toBe('3 children');
  });
});

describe('RuleProgress', () => {
  it('counts a rule done when the last of its checks in the run finished, and only rules of the run', () => {
    const progress = new RuleProgress(
      [{ rules: ['notes.a', 'notes.b'] }, { rules: ['notes.b'] }, { rules: ['notes.c', 'collections.x'] }],
      (id) => id.startsWith('notes.'),
    );
    expect([progress.done, progress.total]).toEqual([0, 3]);
    progress.checkDone(['notes.a', 'notes.b']);
    expect(progress.done).toBe(1); // notes.b still has a check to go
    progress.checkDone(['notes.b']);
    progress.checkDone(['notes.c', 'collections.x']);
    expect([progress.done, progress.total]).toEqual([3, 3]);
    // A check reported twice, or one outside the run, changes nothing.
    progress.checkDone(['notes.b', 'collections.x', 'unknown.rule']);
    expect(progress.done).toBe(3);
  });
});
