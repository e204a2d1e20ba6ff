import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ScannedObject, scanJson } from '../../fake/http/json-scan.js';
import { parseJsonBody, readJsonBody } from '../../fake/http/parse.js';
import { answer, cores } from './json-scan-cores.js';

/**
 * readJsonBody (json-scan.ts) must answer every body exactly as JSON.parse did: the same error for
 * a malformed body or a refused key, the same keys in the same order, the same values wherever a
 * route can read them (two levels deep). Compared here on random texts, valid and broken, and on
 * whole answers of the fake with the old parsing and the new.
 */

/** Containers below `level` 2 as readJsonBody builds them: empty, of their kind. */
function readable(value: unknown, level: number): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (level >= 2) return Array.isArray(value) ? [] : {};
  if (Array.isArray(value)) return value.map((item) => readable(item, level + 1));
  return Object.fromEntries(
    Object.keys(value).map((k) => [k, readable((value as Record<string, unknown>)[k], level + 1)]),
  );
}

type Outcome = { error: string } | { keys: string[]; values: unknown[] } | { value: unknown };

/** What a route can read of a body: its error, or its keys in order and their readable values. */
function outcome(read: () => unknown): Outcome {
  let value: unknown;
  try {
    value = read();
  } catch (error) {
    return { error: (error as Error).message };
  }
  if (value instanceof ScannedObject)
    return { keys: value.allKeys(), values: value.allKeys().map((_, i) => value.value(i)) };
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const keys = Object.keys(value);
    return { keys, values: keys.map((k) => readable((value as Record<string, unknown>)[k], 1)) };
  }
  return { value: readable(value, 0) };
}

function same(text: string): void {
  expect(
    outcome(() => readJsonBody(text, 'application/json')),
    JSON.stringify(text).slice(0, 300),
  ).toEqual(outcome(() => parseJsonBody(text, 'application/json')));
}

const KEYS = [
  ...['a', 'b', 'content', 'query', '0', '1', '10', '4294967294', '4294967295', '01', '-1', '__proto__'],
  ...['00', '1234567890', '12345678901', '9'],
];
const KEYS_ESCAPED = [
  'constructor',
  'prototype',
  '\\u005f_proto__',
  'prot\\u006ftype',
  'a\\"b',
  '\\u0030',
  '\\u0061',
  '1\\u0030',
];
const ws = fc.constantFrom('', '', '', ' ', '\n', '\t ', '\r\n');
const scalar = fc.oneof(
  fc.constantFrom('true', 'false', 'null', '0', '-0', '1.5e3', '-12', '1E+2', '0.000001', '1e400'),
  fc.string({ maxLength: 6 }).map((s) => JSON.stringify(s)),
  fc.constantFrom('"\\u00e9\\n"', '"\\ud83d\\ude00"', '"\\/"', '"\\ud800"'),
);
/** JSON texts with whitespace, repeated and array-index keys, escapes and refused keys. */
const jsonText: fc.Arbitrary<string> = fc.letrec<{ value: string }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    scalar,
    fc
      .tuple(fc.array(fc.tuple(ws, tie('value'), ws), { maxLength: 4 }), ws)
      .map(([items, w]) => (items.length === 0 ? `[${w}]` : `[${items.map(([a, v, b]) => a + v + b).join(',')}]`)),
    fc
      .tuple(
        fc.array(
          fc.tuple(
            fc.oneof(fc.constantFrom(...KEYS), fc.constantFrom(...KEYS_ESCAPED), fc.string({ maxLength: 3 })),
            ws,
            tie('value'),
            ws,
          ),
          { maxLength: 5 },
        ),
        ws,
      )
      .map(([members, w]) =>
        members.length === 0
          ? `{${w}}`
          : `{${members.map(([k, a, v, b]) => `${a}${k.includes('\\') ? `"${k}"` : JSON.stringify(k)}${a}:${a}${v}${b}`).join(',')}}`,
      ),
  ),
})).value;

/** A valid text broken (or not) at one place: a character dropped, added or changed, or the end cut. */
const brokenText = fc
  .tuple(jsonText, fc.nat(), fc.constantFrom(...'[]{}",:0123456789eE.+-tfnul \\x\u0001'.split('')), fc.nat(3))
  .map(([text, at, c, how]) => {
    const i = text.length === 0 ? 0 : at % text.length;
    if (how === 0) return text.slice(0, i) + text.slice(i + 1);
    if (how === 1) return text.slice(0, i) + c + text.slice(i);
    if (how === 2) return text.slice(0, i) + c + text.slice(i + 1);
    return text.slice(0, i);
  });

/** Long enough that the error lies past the containers json-scan replaces before re-parsing. */
const padded = (text: fc.Arbitrary<string>) =>
  fc.tuple(fc.nat(3), text, fc.nat(3)).map(([before, t, after]) => {
    const big = `[${'[[1,{"k":"v"}],'.repeat(10)}{}]`;
    return `{"pad":[${Array(before).fill(big).join(',')}],"x":${t}${Array(after).fill(`,"q":${big}`).join('')}}`;
  });

/** Nests of arrays or objects closed at random places, then a tail that may break the text. */
const nestsThenTail = fc
  .tuple(
    fc.array(
      fc
        .tuple(
          fc.nat(200),
          fc.nat(200),
          fc.constantFrom('[', '{"k":', '{"__proto__":'),
          fc.constantFrom('', ' ', '\n', '1,2,', '[1],'),
        )
        .map(([depth, closed, open, gap]) => {
          const close = open === '[' ? ']' : '}';
          return `${open.repeat(depth)}${gap}0${close.repeat(Math.min(depth, closed))}`;
        }),
      { minLength: 1, maxLength: 4 },
    ),
    fc.constantFrom('', 'x', '}', ']', ',', ',x', ', ]', ',\n"\u0001"', ' '.repeat(70), `${' '.repeat(70)}x`),
  )
  .map(([parts, tail]) => `{"pad":[${parts.join(',')}${tail}`);

/** Opening brackets outside strings (none of the texts here has a bracket in a string). */
const opening = (text: string) => text.replace(/[^[{]/g, '').length;
/** Where JSON.parse finds the text's syntax error, or its length when there is none. */
function errorAt(text: string): number {
  try {
    JSON.parse(text);
  } catch (error) {
    const at = /at position (\d+)/.exec((error as Error).message);
    return at ? Number(at[1]) : text.length;
  }
  return text.length;
}
/** Containers open at the end of a text (brackets outside strings, as above). */
const unclosed = (text: string) => opening(text) - text.replace(/[^\]}]/g, '').length;

describe('what a refused body hands to JSON.parse', () => {
  it('holds no container complete 65 characters before the error, but those holding it', () => {
    fc.assert(
      fc.property(nestsThenTail, (text) => {
        const scanned = scanJson(text);
        if (scanned.kind !== 'reparse') return;
        expect(scanned.text.length).toBe(text.length);
        const error = errorAt(text);
        // Before the error: the containers open there, and those closed within 65 characters of it.
        expect(opening(scanned.text.slice(0, error))).toBeLessThanOrEqual(unclosed(text.slice(0, error)) + 65);
      }),
      { numRuns: 1_000 },
    );
  });

  it('past the log limit of the first scan: scanned again, the same answers, as light', () => {
    // Items of three containers each (too deep for a run): 210,000 ranges, past the limit.
    const many = '[[[1]]],'.repeat(70_000);
    for (const text of [
      `{"pad":[${many}x]}`,
      `{"pad":[${many}[1]]`,
      `{"q":"x","pad":[${many}{"__proto__":1}]}`,
      `{"q":"x","pad":[${'{"constructor":1},'.repeat(70_000)}1]}`,
    ]) {
      same(text);
      const scanned = scanJson(text);
      expect(scanned.kind).toBe('reparse');
      // Left: those closed in the last 65 characters (8 items), and those open at the error.
      if (scanned.kind === 'reparse' && !text.includes('constructor')) expect(opening(scanned.text)).toBeLessThan(30);
    }
  });

  it('runs of small containers: all but the last run (up to 1,024 items) stand in', () => {
    for (const item of ['[1]', '{"a":1}', '[1,"b",[],{}]', '{"a":[],"b":{}}']) {
      const many = `${item},`.repeat(70_000);
      for (const text of [
        `{"pad":[${many}x]}`,
        `{"pad":[${many}${item}]`,
        `{"q":"x","pad":[${many}{"__proto__":1}]}`,
      ]) {
        same(text);
        const scanned = scanJson(text);
        expect(scanned.kind).toBe('reparse');
        if (scanned.kind === 'reparse') expect(opening(scanned.text)).toBeLessThan(3 * 1024 + 10);
      }
    }
  });

  it('a million {} before a refused key, and nested arrays missing their last bracket: a few brackets left', () => {
    const depth = 100_000;
    for (const text of [
      `{"query":"x","pad":[${'{},'.repeat(1_000_000)}{"__proto__":1}]}`,
      `{"content":"x","pad":${'['.repeat(depth)}${']'.repeat(depth - 1)}}`,
      `{"content":"x","pad":${'['.repeat(depth)}${' ]'.repeat(depth - 1)}}`,
    ]) {
      const scanned = scanJson(text);
      expect(scanned.kind).toBe('reparse');
      if (scanned.kind === 'reparse') expect(opening(scanned.text)).toBeLessThan(70);
    }
  });
});

describe('readJsonBody against JSON.parse', () => {
  it('array-index keys, many, repeated and in any order among others: the same keys, order and last values', () => {
    // Index keys are de-duplicated by their index and sorted apart from the others (json-members.ts).
    const key = fc.oneof(
      fc.nat(40).map(String),
      fc.constantFrom('4294967294', '4294967295', '01', '007', '-1', '1.0', 'a', 'b', 'k7', '\\u0031', '1\\u0030'),
      // Past 2^22: only the radix sort's last pass orders them.
      fc.constantFrom('4194304', '4194305', '8388608', '3000000000', '3000000001'),
      fc.nat(4_294_967_294).map(String),
    );
    const body = fc
      .array(fc.tuple(key, fc.integer(), ws), { minLength: 1, maxLength: 120 })
      .map((members) => `{${members.map(([k, v, w]) => `${w}"${k}"${w}:${v}`).join(',')}}`);
    fc.assert(fc.property(body, same), { numRuns: 2_000 });
  });

  it('valid texts: the same keys, order and readable values, or the same refusal', () => {
    fc.assert(fc.property(jsonText, same), { numRuns: 3_000 });
    fc.assert(fc.property(padded(jsonText), same), { numRuns: 500 });
  });

  it('broken texts: the same error message', () => {
    fc.assert(fc.property(brokenText, same), { numRuns: 3_000 });
    fc.assert(fc.property(padded(brokenText), same), { numRuns: 1_000 });
    fc.assert(
      fc.property(fc.string({ maxLength: 12 }), fc.string({ unit: 'binary', maxLength: 12 }), (a, b) => {
        same(a);
        same(b);
      }),
      { numRuns: 2_000 },
    );
  });

  it('errors among deep nests and runs of items, near and far from the margin kept before them', () => {
    fc.assert(fc.property(nestsThenTail, same), { numRuns: 1_500 });
  });

  it('long strings at the root (found by their quotes, checked by JSON.parse): every escape and break', () => {
    const piece = fc.constantFrom(
      'a',
      'é',
      '\\"',
      '\\\\',
      '\\u0041',
      '\\n',
      '\\ud800',
      '\u0001',
      '\\x',
      '\\',
      '"',
      '\n',
    );
    const long = fc
      .tuple(fc.array(piece, { maxLength: 6 }), fc.array(piece, { maxLength: 6 }), fc.nat(2))
      .map(([before, after, at]) => {
        const filler = 'x'.repeat(4_100);
        const parts = [before.join(''), after.join('')];
        return `"${[parts[0], filler, parts[1]].join('').slice(0, at === 2 ? undefined : 8_000)}"`;
      });
    const body = fc.tuple(long, fc.constantFrom('first', 'middle', 'last', 'repeated'), ws).map(([value, where, w]) => {
      if (where === 'first') return `{"q":${value}${w},"b":1}`;
      if (where === 'middle') return `{"a":1,"q":${w}${value},"b":[1]}`;
      if (where === 'repeated') return `{"q":${value},"q":"x","q":${value}}`;
      return `{"a":1,"q":${value}${w}}`;
    });
    fc.assert(fc.property(body, same), { numRuns: 1_000 });
  });

  it('known cases', () => {
    for (const text of [
      '',
      ' ',
      '{}',
      '[]',
      '{"a":1,"a":2}',
      '{"b":1,"2":2,"1":3,"b":4}',
      '{"a":{"__proto__":1},"a":2}',
      '{"a":[{"constructor":1}],"b":{"prototype":2}}',
      '{"\\u005f_proto__":1}',
      `{"pad":${'['.repeat(5000)}${']'.repeat(5000)}}`,
      `{"pad":${'['.repeat(5000)}${']'.repeat(4999)}}`,
      `{"pad":${'['.repeat(5000)}${']'.repeat(5000)}x}`,
      `[${'[1],'.repeat(100)}x]`,
      '{"a":1} x',
      '"\\ud800"',
      '{"a":"\u2028"}',
      `{"q":"x","pad":[${'{},'.repeat(1000)}{"__proto__":1}]}`,
      '{"a":[{},{ },[\n],{"b":[1,{}]},\r\n{"c":[[\n1]]}],"c":{"prototype":1},"d":[[[]]]}',
      `[${'{},\n'.repeat(100)}{"constructor":{}}, ${'[[1]],'.repeat(50)} x]`,
      // Many array-index keys, sent out of order and repeated, among others (sorted packed in doubles).
      `{${Array.from({ length: 3000 }, (_, i) => `"${(i * 7919) % 2003}":${i},"k${i % 50}":${i}, "${4294967294 - i}" : 0`).join(',')}}`,
      // Large bodies one after another (the de-duplication table kept between bodies must be empty).
      `{${Array.from({ length: 2000 }, (_, i) => `"a${i % 700}":${i}`).join(',')}}`,
      `{${Array.from({ length: 2000 }, (_, i) => `"a${(i * 7) % 1500}":${i}`).join(',')}}`,
      `{${Array.from({ length: 2000 }, (_, i) => `"a${i % 700}":${i}`).join(',')}}`,
      // Open deeper than half the text's length (the scan's stack once assumed it could not be).
      `${'['.repeat(3000)}{}${' '.repeat(70)}x`,
      `${'['.repeat(3000)}[1]]]${' '.repeat(70)}x`,
    ]) {
      same(text);
    }
    expect(scanJson(`{"a":${'['.repeat(100)}${']'.repeat(100)}}`).kind).toBe('object');
  });
});

const ROUTES: Array<[string, string]> = [
  ['POST', '/v2/notes'],
  ['POST', '/v2/notes/search'],
  ['POST', '/v2/collections'],
  ['POST', '/v2/collections/search'],
];
const FIELDS = [
  'content',
  'query',
  'title',
  'description',
  'collections',
  'collection_ids',
  'collection_titles',
  'created_at',
  'response_shape',
  'include_content',
  'limit',
  'q',
  'pad',
];
const fieldValue = fc.oneof(
  jsonText,
  fc.constantFrom('"x"', '"2026-01-01T00:00:00Z"', '["a","b"]', '[["a"]]', '[{}]', '[1]', '{"include_content":[1]}'),
);
const body = fc
  .array(fc.tuple(fc.constantFrom(...FIELDS), fieldValue), { maxLength: 5 })
  .map((members) => `{${members.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`);

describe('answers of the fake: readJsonBody against JSON.parse', () => {
  for (const profile of ['fake', 'hosted']) {
    it(`random bodies, profile ${profile}`, () => {
      const { now, before } = cores(profile);
      fc.assert(
        fc.property(fc.constantFrom(...ROUTES), fc.oneof(body, brokenText, jsonText), ([method, url], text) => {
          expect(answer(now, method, url, text)).toEqual(answer(before, method, url, text));
        }),
        { numRuns: 1_500 },
      );
    });
  }
});
