import { type AttachmentRecord, FEATURE, type NoteRecord } from '../store/records.js';
import type { ServiceContext } from './context.js';

export type TitleDerivation = 'as_is' | 'strip_heading_markers';

const SNIPPET_CHARS = 200;

export function firstLine(content: string): string {
  const end = content.search(/\r?\n/);
  return end === -1 ? content : content.slice(0, end);
}

/** The title is the first line of the content (part 1); surrounding whitespace is not kept. */
export function deriveTitle(content: string, derivation: TitleDerivation): string {
  const line = firstLine(content).trim();
  if (derivation === 'as_is') return line;
  return line.replace(/^#{1,6}(\s+|$)/, '').replace(/\s+#+\s*$/, '').trim();
}

/** A short plain-text excerpt: the text after the title line, whitespace collapsed. */
export function snippetOf(content: string): string {
  const end = content.search(/\r?\n/);
  const rest = end === -1 ? '' : content.slice(end + 1);
  const source = rest.trim() === '' ? content : rest;
  const flat = source.slice(0, SNIPPET_CHARS * 4).replace(/\s+/g, ' ').trim();
  return flat.length > SNIPPET_CHARS ? `${flat.slice(0, SNIPPET_CHARS - 1)}…` : flat;
}

const OPEN_TASK = /^[ \t]*[-*+][ \t]+\[ \](?:[ \t]|$)/m;
const ANY_TASK = /^[ \t]*[-*+][ \t]+\[[ xX]\](?:[ \t]|$)/m;
const IMAGE = /!\[[^\]\n]*\]\([^)\s]+(?:\s+"[^"]*")?\)/;
const FILE_LINK = /(?<!!)\[[^\]\n]*\]\([^)\s]+\.(?:pdf|docx?|xlsx?|pptx?|csv|zip|txt|rtf|odt|ods|odp|key|pages|numbers)(?:[?#][^)\s]*)?\)/i;

/** Which contains-filter kinds the note has: markdown tasks, images and file links, or attachments. */
export function featuresOf(content: string, attachments: readonly AttachmentRecord[]): number {
  let bits = 0;
  if (OPEN_TASK.test(content)) bits |= FEATURE.openTask;
  if (ANY_TASK.test(content)) bits |= FEATURE.task;
  if (IMAGE.test(content) || attachments.some((a) => a.attachment_kind === 'image')) bits |= FEATURE.image;
  if (FILE_LINK.test(content) || attachments.some((a) => a.attachment_kind !== 'image')) bits |= FEATURE.file;
  return bits;
}

/** Everything derived from a note's content, as the instance's title derivation says. */
export function contentFields(ctx: ServiceContext, content: string, note?: NoteRecord): { content: string; title: string; snippet: string; features: number } {
  const title = deriveTitle(content, ctx.settings.titleDerivation);
  return { content, title, snippet: snippetOf(content), features: featuresOf(content, note?.attachments ?? []) };
}
