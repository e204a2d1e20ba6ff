import { describe, expect, it } from 'vitest';
import { redactDeep, redactText } from '../../../kit/core/redact.js';

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

  it('removes a token JSON-escaped with \\/, in base64 at any offset, in any case and split across lines', () => {
    const t = 'tok/Robust+01==';
    const b64 = (v: string) => Buffer.from(v).toString('base64');
    const forms = [
      'tok\\/Robust+01==',
      t.toUpperCase(),
      t.toLowerCase(),
      'tok%2frobust%2b01%3d%3d',
      b64(t),
      b64(`user:${t}`),
      b64(`ab${t}cd`),
      Buffer.from(`{"after":"${t}"}`).toString('base64url'),
      'tok/Ro\nbust+01==',
      'tok/Ro\r\n    bust+01==',
      'tok\\/Ro\\nbust+01==',
    ];
    for (const form of forms) {
      const out = redactText(`before ${form} after`, [t]);
      expect(out, form).toContain('***');
      expect(out.toLowerCase().replace(/\s|\\n/g, ''), form).not.toContain('robust');
      // What is left of a base64 text around the token cannot spell it.
      expect(out.length, form).toBeLessThan(`before ${form} after`.length);
    }
    expect(redactText('nothing secret here, Robust or not', [t])).toBe('nothing secret here, Robust or not');
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
