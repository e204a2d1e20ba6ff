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

describe('redaction of a token split by characters a reader does not see', () => {
  const t = 'tok/Robust+01==';
  const split = (joiner: string) => [...t].join(joiner);
  const joiners: Record<string, string> = {
    'U+200B zero width space': '\u200b',
    'U+200C zero width non-joiner': '\u200c',
    'U+200D zero width joiner': '\u200d',
    'U+2060 word joiner': '\u2060',
    'U+FEFF byte order mark': '\ufeff',
    'U+00AD soft hyphen': '\u00ad',
    'U+202E right-to-left override (Cf)': '\u202e',
    'U+E0041 tag letter (Cf, astral)': '\u{e0041}',
    'U+034F combining grapheme joiner (default ignorable)': '\u034f',
    'U+200B JSON-escaped': '\\u200b',
    'U+FEFF JSON-escaped, upper-case hex': '\\uFEFF',
    'U+200B percent-encoded': '%E2%80%8B',
    'U+00AD percent-encoded': '%c2%ad',
    'U+200B as an HTML character reference': '&#x200B;',
    'U+2060 as a decimal character reference': '&#8288;',
    'two joiners and a line break': '\u200b\u200d\n  ',
  };
  for (const [what, joiner] of Object.entries(joiners)) {
    it(`between every two characters: ${what}`, () => {
      const form = split(joiner);
      const out = redactText(`before ${form} after`, [t]);
      expect(out, JSON.stringify(out)).toBe('before *** after');
    });
  }

  it('inside other forms too: percent-encoded and upper-cased, split by U+200B', () => {
    for (const form of [[...encodeURIComponent(t)].join('\u200b'), split('\u2060').toUpperCase()])
      expect(redactText(`a ${form} b`, [t])).toBe('a *** b');
  });

  it('as JSON writes non-ASCII characters: \\uXXXX escapes', () => {
    const accented = 'tök-secret-é1';
    expect(redactText('x t\\u00f6k-secret-\\u00e91 y', [accented])).toBe('x *** y');
  });

  it('leaves visible characters and their escapes alone, and text with gaps but no token as it is', () => {
    for (const text of [
      'tok/Ro-bust+01==',
      'tok/Ro\\u0041bust+01==',
      'tok/Ro%41bust+01==',
      'tok/Ro&#65;bust+01==',
      'tok/Ro%E2%82%ACbust+01==',
      'plain \u200b text %E2%80%8B with gaps \\u200b and & and % and \\',
    ])
      expect(redactText(text, [t])).toBe(text);
  });

  it('keeps the text around a split token exactly', () => {
    expect(redactText(`[\u200b${split('\u200b')}\u200b]`, [t])).toBe('[\u200b***\u200b]');
  });
});
