import { describe, expect, it } from 'vitest';
import { redactDeep, redactText } from '../../../suites/harness/redact.js';

/** The report's final pass: every token, in every form a target may hand it back, in every string. */
describe('redaction', () => {
  const token = 'tok en/+"\\é-123456';

  it('removes a token as it is, percent-encoded, form-encoded and JSON-escaped', () => {
    for (const form of [
      token,
      encodeURIComponent(token),
      new URLSearchParams({ s: token }).toString().slice(2),
      JSON.stringify(token).slice(1, -1),
    ]) {
      expect(redactText(`before ${form} after`, [token])).toBe('before *** after');
    }
  });

  it('leaves values too short to be a token alone (they would mangle ordinary text)', () => {
    expect(redactText('abc abc', ['abc'])).toBe('abc abc');
  });

  it('walks every string of a report, keys and nested arrays included, and leaves other values', () => {
    const report = {
      exit_code: 1,
      rules: [
        {
          id: 'notes.create',
          reason: `expected "${token}" to be "x"`,
          evidence: [{ headers: { [`x-${token}`]: `Bearer ${token}` } }],
        },
      ],
      ok: true,
      none: null,
    };
    const out = redactDeep(report, ['learned-secret-1', token]);
    expect(JSON.stringify(out)).not.toContain(token);
    expect(out).toEqual({
      exit_code: 1,
      rules: [
        { id: 'notes.create', reason: 'expected "***" to be "x"', evidence: [{ headers: { 'x-***': 'Bearer ***' } }] },
      ],
      ok: true,
      none: null,
    });
  });
});
