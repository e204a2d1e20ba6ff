/**
 * Plain words for people: the renderers pass every reason through plainReason, which drops the
 * matcher's vocabulary and makes invisible differences (trailing blanks, CR, tabs, no-break and
 * zero-width spaces) visible as escapes.
 */

const EQUALITY_NOTE = /\s*\/\/\s*(?:Object\.is|deep|strict|deep strict) equality/g;
const BARE_BOOLEAN = /^(?:AssertionError:\s*)?expected (true|false) to be (true|false)$/;
const TRAILING_BOOLEAN = /:\s*expected (?:true|false) to be (?:true|false)$/;
const TO_BE = /^expected (.+?) to (?:be|equal|strictly equal|deeply equal) (.+)$/;

export function plainReason(message: string): string {
  let text = showInvisible(message)
    .replace(EQUALITY_NOTE, '')
    .replace(/^AssertionError:\s*/, '')
    .trim();
  if (BARE_BOOLEAN.test(text)) return 'a condition the check asserts did not hold (the check gave no message)';
  // `expect(ok, 'the list is sorted').toBe(true)` -> "the list is sorted: expected false to be true".
  text = text.replace(TRAILING_BOOLEAN, '');
  const toBe = TO_BE.exec(text);
  if (toBe && !/ to (?:be|equal) /.test(toBe[1]!)) return `got ${toBe[1]}, expected ${toBe[2]}`;
  return text.replace(
    /: expected (.+?) to (?:be|equal|strictly equal|deeply equal) (.+)$/,
    (_m, got: string, want: string) => `: got ${got}, expected ${want}`,
  );
}

const INVISIBLE: Record<string, string> = {
  '\r': '\\r',
  '\t': '\\t',
  '\u00a0': '\\u00a0',
  '\u200b': '\\u200b',
  '\u200c': '\\u200c',
  '\u200d': '\\u200d',
  '\u2060': '\\u2060',
  '\ufeff': '\\ufeff',
};

/**
 * Escapes what a reader cannot see: CR, tab, no-break/zero-width characters and other controls
 * anywhere (not LF: multi-line text stays multi-line), and blanks at the end of a quoted literal
 * ('abc ' -> 'abc\u0020'), the usual cause of "expected 'abc ' to be 'abc'" puzzles.
 */
export function showInvisible(text: string): string {
  const escaped = text.replace(
    // biome-ignore lint/suspicious/noControlCharactersInRegex: invisible characters are what this shows
    /[\r\t\u00a0\u200b-\u200d\u2060\ufeff]|[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g,
    (c) => INVISIBLE[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  // A literal opens after a blank or bracket and closes before one (apostrophes in words do not count).
  return escaped.replace(
    /(?<=^|[\s([{,:=])(['"])([^'"\n]*?)( +)\1(?=$|[\s)\]},.:;])/g,
    (_m, q: string, body: string, blanks: string) => `${q}${body}${'\\u0020'.repeat(blanks.length)}${q}`,
  );
}

/** At most `max` characters, with an ellipsis and the full length when cut. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}... (${text.length.toLocaleString('en-US')} characters in all)`;
}

/** The progress line the runner prints: "37/266 rules, 0:42 elapsed" (total 0: unknown yet). */
export function formatProgress(done: number, total: number, elapsedMs: number): string {
  const seconds = Math.max(0, Math.floor(elapsedMs / 1000));
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = String(seconds % 60).padStart(2, '0');
  const elapsed = h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
  return `${total > 0 ? `${done}/${total}` : done} ${total === 1 || (total === 0 && done === 1) ? 'rule' : 'rules'}, ${elapsed} elapsed`;
}

/** "1 rule", "2 rules", "0 rules": the count with its noun in the right number (`many` for irregular plurals). */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}
