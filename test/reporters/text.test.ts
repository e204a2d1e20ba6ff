import { describe, expect, it } from 'vitest';
import { clip, formatProgress, plainReason, showInvisible } from '../../reporters/text.js';

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
    expect(formatProgress(37, 212, 42_900)).toBe('37/212 checks, 0:42 elapsed');
    expect(formatProgress(212, 212, 3_725_000)).toBe('212/212 checks, 1:02:05 elapsed');
    expect(formatProgress(5, 0, 61_000)).toBe('5 checks, 1:01 elapsed');
  });
});
