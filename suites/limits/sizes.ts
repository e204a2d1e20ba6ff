import type { CheckContext } from '../harness/index.js';

/**
 * Markdown of exactly `chars` characters: an ASCII title line and the run marker, then `fill`
 * repeated. With a two-byte fill ('é') the byte count is prefix + 2 * fills, which tells a
 * byte limit apart from a character limit.
 */
export function sized(
  t: CheckContext,
  chars: number,
  fill: 'a' | 'é',
): { content: string; chars: number; bytes: number } {
  const prefix = `Limit ${t.data.word()}\n${t.data.marker}\n`;
  const n = chars - prefix.length;
  const content = prefix + fill.repeat(n);
  return { content, chars, bytes: Buffer.byteLength(content, 'utf8') };
}

/** The most characters of a two-byte fill that stay within `maxBytes`, and the fewest that exceed it. */
export function twoByteAround(t: CheckContext, maxBytes: number): { within: string; over: string } {
  const prefix = `Limit ${t.data.word()}\n${t.data.marker}\n`;
  const fits = Math.floor((maxBytes - prefix.length) / 2);
  return { within: prefix + 'é'.repeat(fits), over: prefix + 'é'.repeat(fits + 1) };
}

/** A string of exactly n characters (ASCII or two-byte), starting with a unique word. */
export function text(t: CheckContext, n: number, fill: 'a' | 'é' = 'a'): string {
  const head = `${t.data.word()} `;
  return head.length >= n ? head.slice(0, n) : head + fill.repeat(n - head.length);
}
