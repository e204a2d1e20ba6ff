/**
 * Markdown image and file-link detection in linear time. The fake used to test
 *   image      /!\[[^\]\n]*\]\([^)\s]+(?:\s+"[^"]*")?\)/
 *   file link  /(?<!!)\[[^\]\n]*\]\([^)\s]+\.(?:pdf|docx?|…)(?:[?#][^)\s]*)?\)/i
 * which backtrack: every `![` or `[` start rescans the rest of an unclosed target, so a
 * 200,000-character note of `![](a` took seconds. These scanners answer the same question (is
 * there a match anywhere) by noting that every part of a match is deterministic: the label ends
 * at the first `]`, the target is the maximal run of characters that are neither `)` nor
 * whitespace, and a title ends at the next `"`. Each run is measured once and shared by every
 * start that reaches it, so the whole scan is linear.
 */

const FILE_EXTENSIONS = [
  'pdf',
  'doc',
  'docx',
  'xls',
  'xlsx',
  'ppt',
  'pptx',
  'csv',
  'zip',
  'txt',
  'rtf',
  'odt',
  'ods',
  'odp',
  'key',
  'pages',
  'numbers',
];
const WHITESPACE = /\s/;

function isSpace(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  if (c === 32 || (c >= 9 && c <= 13)) return true;
  return c > 127 && WHITESPACE.test(text[i]!);
}

/** End (exclusive) of the maximal run of characters that are neither `)` nor whitespace, starting at `from`. */
class TargetRuns {
  private start = -1;
  private end = -1;
  constructor(private readonly text: string) {}

  at(from: number): number {
    if (from >= this.start && from < this.end) return this.end;
    const { text } = this;
    let i = from;
    while (i < text.length && text[i] !== ')' && !isSpace(text, i)) i++;
    this.start = from;
    this.end = i;
    return i;
  }
}

/** Starts of the labels (`[` positions, with or without `!` before) in order, each with its label end. */
function* labels(text: string, image: boolean): Generator<{ close: number }> {
  // One pending "first `]` or newline" position serves every `[` before it.
  let stop = -1;
  for (let i = text.indexOf('['); i !== -1; i = text.indexOf('[', i + 1)) {
    const bang = i > 0 && text[i - 1] === '!';
    if (bang !== image) continue;
    if (stop < i + 1) {
      stop = i + 1;
      while (stop < text.length && text[stop] !== ']' && text[stop] !== '\n') stop++;
    }
    if (stop < text.length && text[stop] === ']') yield { close: stop };
  }
}

/** Whether the content holds a markdown image `![label](target)` or `![label](target "title")`. */
export function hasMarkdownImage(text: string): boolean {
  const runs = new TargetRuns(text);
  let lastClose = -1;
  let decidedEnd = -1;
  let titleEnd = -2;
  for (const { close } of labels(text, true)) {
    // Every label closing at the same `]` continues the same way: decide each `]` once.
    if (close === lastClose) continue;
    lastClose = close;
    if (text[close + 1] !== '(') continue;
    const targetStart = close + 2;
    const targetEnd = runs.at(targetStart);
    // What follows a non-empty target depends only on where it ends: decide each end once.
    if (targetEnd === targetStart || targetEnd === decidedEnd) continue;
    decidedEnd = targetEnd;
    if (text[targetEnd] === ')') return true;
    if (targetEnd >= text.length) continue;
    let quote = targetEnd;
    while (quote < text.length && isSpace(text, quote)) quote++;
    if (text[quote] !== '"') continue;
    // The title runs to the next `"`; later starts reach quotes at or after this one, so remember the last answer.
    if (titleEnd < quote + 1) titleEnd = text.indexOf('"', quote + 1);
    // No closing quote: no later start can reach a quote either, but a later `![](target)` still can match.
    if (titleEnd !== -1 && text[titleEnd + 1] === ')') return true;
  }
  return false;
}

/** Whether the content holds a markdown link `[label](target.ext)` to a file-like target (not an image). */
export function hasMarkdownFileLink(text: string): boolean {
  const runs = new TargetRuns(text);
  let lastClose = -1;
  let decidedRunEnd = -1;
  let lastFileDot = -1;
  for (const { close } of labels(text, false)) {
    if (close === lastClose) continue;
    lastClose = close;
    if (text[close + 1] !== '(') continue;
    const targetStart = close + 2;
    const targetEnd = runs.at(targetStart);
    if (text[targetEnd] !== ')') continue;
    // A target qualifies when some `.ext` inside it, after its first character, ends the target
    // or is followed by `?` or `#`. The last such dot is the same for every start in the run.
    if (targetEnd !== decidedRunEnd) {
      decidedRunEnd = targetEnd;
      lastFileDot = lastFileExtensionDot(text, targetStart, targetEnd);
    }
    if (lastFileDot > targetStart) return true;
  }
  return false;
}

function lastFileExtensionDot(text: string, start: number, end: number): number {
  for (let dot = text.lastIndexOf('.', end - 1); dot >= start; dot = dot === 0 ? -1 : text.lastIndexOf('.', dot - 1)) {
    for (const ext of FILE_EXTENSIONS) {
      const after = dot + 1 + ext.length;
      if (after > end || !asciiCaseless(text, dot + 1, ext)) continue;
      if (after === end || text[after] === '?' || text[after] === '#') return dot;
    }
  }
  return -1;
}

/** The regex's `i` flag without `u` folds ASCII letters only. */
function asciiCaseless(text: string, at: number, lower: string): boolean {
  for (let k = 0; k < lower.length; k++) {
    const c = text.charCodeAt(at + k);
    const folded = c >= 65 && c <= 90 ? c + 32 : c;
    if (folded !== lower.charCodeAt(k)) return false;
  }
  return true;
}
