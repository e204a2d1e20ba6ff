import { type AttachmentRecord, FEATURE, type NoteRecord } from '../store/records.js';
import type { ServiceContext, TitleDerivation } from './context.js';
import { hasMarkdownFileLink, hasMarkdownImage } from './markdown-links.js';

export type { TitleDerivation } from './context.js';

const SNIPPET_CHARS = 200;

export function firstLine(content: string): string {
  const end = content.search(/\r?\n/);
  return end === -1 ? content : content.slice(0, end);
}

/** The title is the first line of the content (part 1); surrounding whitespace is not kept. */
export function deriveTitle(content: string, derivation: TitleDerivation): string {
  const line = firstLine(content).trim();
  if (derivation === 'as_is') return line;
  return withoutClosingHashes(line.replace(/^#{1,6}(\s+|$)/, '')).trim();
}

/**
 * Drops a closing `#` sequence and the whitespace around it, as `.replace(/\s+#+\s*$/, '')` would;
 * scanned from the end because that regex retries every whitespace run of a long line (quadratic).
 */
function withoutClosingHashes(text: string): string {
  let i = text.length;
  while (i > 0 && /\s/.test(text[i - 1]!)) i--;
  const hashesEnd = i;
  while (i > 0 && text[i - 1] === '#') i--;
  if (i === hashesEnd) return text;
  const hashesStart = i;
  while (i > 0 && /\s/.test(text[i - 1]!)) i--;
  return i === hashesStart ? text : text.slice(0, i);
}

/** A short plain-text excerpt: the text after the title line, whitespace collapsed. */
export function snippetOf(content: string): string {
  const end = content.search(/\r?\n/);
  const rest = end === -1 ? '' : content.slice(end + 1);
  const source = rest.trim() === '' ? content : rest;
  const flat = source
    .slice(0, SNIPPET_CHARS * 4)
    .replace(/\s+/g, ' ')
    .trim();
  return flat.length > SNIPPET_CHARS ? `${flat.slice(0, SNIPPET_CHARS - 1)}…` : flat;
}

const OPEN_TASK = /^[ \t]*[-*+][ \t]+\[ \](?:[ \t]|$)/m;
const ANY_TASK = /^[ \t]*[-*+][ \t]+\[[ xX]\](?:[ \t]|$)/m;

/** Which contains-filter kinds the note has: markdown tasks, images and file links, or attachments. */
export function featuresOf(content: string, attachments: readonly AttachmentRecord[]): number {
  let bits = 0;
  if (OPEN_TASK.test(content)) bits |= FEATURE.openTask;
  if (ANY_TASK.test(content)) bits |= FEATURE.task;
  if (hasMarkdownImage(content) || attachments.some((a) => a.attachment_kind === 'image')) bits |= FEATURE.image;
  if (hasMarkdownFileLink(content) || attachments.some((a) => a.attachment_kind !== 'image')) bits |= FEATURE.file;
  return bits;
}

/** Everything derived from a note's content, as the instance's title derivation says. */
export function contentFields(
  ctx: ServiceContext,
  content: string,
  note?: NoteRecord,
): { content: string; title: string; features: number } {
  const title = deriveTitle(content, ctx.settings.titleDerivation);
  return { content, title, features: featuresOf(content, note?.attachments ?? []) };
}
