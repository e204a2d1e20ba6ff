import { esc } from './html-page.js';

/**
 * A small Markdown-to-HTML renderer for the API document (headings, paragraphs, lists, pipe tables,
 * fenced code; inline code, **strong** and links). It keeps raw character offsets, which is why it is
 * not markdown-it: the spec view marks quoted text by its position in the source, through two hooks.
 */
export interface MarkdownHooks {
  /** HTML for the leaf text at raw offsets [start, end) (escape it; may wrap parts in marks). */
  text(start: number, end: number): string;
  /** HTML appended to a block (paragraph, list item, table cell, heading) spanning [start, end). */
  after(start: number, end: number): string;
  /** Called at each level-2 heading (a part of the document), before it; returns HTML to insert. */
  part?(title: string, index: number): string;
}

interface Line {
  text: string;
  start: number;
}

export function markdownToHtml(source: string, hooks: MarkdownHooks): string {
  const lines: Line[] = [];
  let offset = 0;
  for (const text of source.split('\n')) {
    lines.push({ text, start: offset });
    offset += text.length + 1;
  }
  const out: string[] = [];
  let parts = 0;
  const isBlockStart = (text: string) => /^(#{1,6}\s|```|\||\s*(?:[-*]|\d+\.)\s)/.test(text);
  for (let i = 0; i < lines.length; ) {
    const line = lines[i]!;
    const heading = /^(#{1,6})\s+/.exec(line.text);
    if (line.text.trim() === '') {
      i++;
    } else if (heading) {
      const level = heading[1]!.length;
      const start = line.start + heading[0].length;
      const end = line.start + line.text.length;
      if (level === 2 && hooks.part) out.push(hooks.part(source.slice(start, end), parts++));
      out.push(`<h${level}>${inline(source, start, end, hooks)}${hooks.after(start, end)}</h${level}>`);
      i++;
    } else if (line.text.startsWith('```')) {
      const body: string[] = [];
      for (i++; i < lines.length && !lines[i]!.text.startsWith('```'); i++) body.push(lines[i]!.text);
      i++;
      out.push(`<pre><code>${esc(body.join('\n'))}</code></pre>`);
    } else if (line.text.startsWith('|')) {
      const rows: Line[] = [];
      for (; i < lines.length && lines[i]!.text.startsWith('|'); i++) rows.push(lines[i]!);
      out.push(table(source, rows, hooks));
    } else if (/^\s*(?:[-*]|\d+\.)\s/.test(line.text)) {
      const ordered = /^\s*\d+\./.test(line.text);
      const items: string[] = [];
      while (i < lines.length && /^\s*(?:[-*]|\d+\.)\s/.test(lines[i]!.text)) {
        const marker = /^\s*(?:[-*]|\d+\.)\s+/.exec(lines[i]!.text)!;
        const start = lines[i]!.start + marker[0].length;
        let end = lines[i]!.start + lines[i]!.text.length;
        // Continuation lines (not blank, not a new block) belong to the item.
        for (i++; i < lines.length && lines[i]!.text.trim() !== '' && !isBlockStart(lines[i]!.text); i++)
          end = lines[i]!.start + lines[i]!.text.length;
        items.push(`<li>${inline(source, start, end, hooks)}${hooks.after(start, end)}</li>`);
      }
      out.push(`<${ordered ? 'ol' : 'ul'}>${items.join('')}</${ordered ? 'ol' : 'ul'}>`);
    } else {
      const start = line.start;
      let end = line.start + line.text.length;
      for (i++; i < lines.length && lines[i]!.text.trim() !== '' && !isBlockStart(lines[i]!.text); i++)
        end = lines[i]!.start + lines[i]!.text.length;
      out.push(`<p>${inline(source, start, end, hooks)}${hooks.after(start, end)}</p>`);
    }
  }
  return out.join('\n');
}

function table(source: string, rows: readonly Line[], hooks: MarkdownHooks): string {
  const isSeparator = (text: string) => /^\|?[\s:|-]+\|?$/.test(text) && text.includes('-');
  const cellsOf = (row: Line) => {
    const cells: Array<{ start: number; end: number }> = [];
    const text = row.text.replace(/\|\s*$/, '');
    let from = text.startsWith('|') ? 1 : 0;
    while (from <= text.length) {
      let to = text.indexOf('|', from);
      if (to < 0) to = text.length;
      let s = from;
      let e = to;
      while (s < e && text[s] === ' ') s++;
      while (e > s && text[e - 1] === ' ') e--;
      cells.push({ start: row.start + s, end: row.start + e });
      from = to + 1;
    }
    return cells;
  };
  const hasHead = rows.length > 1 && isSeparator(rows[1]!.text);
  const render = (row: Line, tag: 'th' | 'td') => {
    const cells = cellsOf(row).map((c) => `${inline(source, c.start, c.end, hooks)}${hooks.after(c.start, c.end)}`);
    // What ends on the row's own pipes (a quote of a whole row) goes into its last cell.
    cells[cells.length - 1] += hooks.after(row.start, row.start + row.text.length);
    return `<tr>${cells.map((c) => `<${tag}>${c}</${tag}>`).join('')}</tr>`;
  };
  const head = hasHead ? `<thead>${render(rows[0]!, 'th')}</thead>` : '';
  const body = rows
    .slice(hasHead ? 2 : 0)
    .map((r) => render(r, 'td'))
    .join('');
  return `<table>${head}<tbody>${body}</tbody></table>`;
}

/** Inline code, **strong** and [links](http...); everything else is leaf text handed to hooks.text. */
function inline(source: string, start: number, end: number, hooks: MarkdownHooks): string {
  const out: string[] = [];
  let leaf = start;
  const flush = (to: number) => {
    if (to > leaf) out.push(hooks.text(leaf, to));
  };
  for (let i = start; i < end; ) {
    const c = source[i];
    if (c === '`') {
      const close = source.indexOf('`', i + 1);
      if (close > i && close < end) {
        flush(i);
        out.push(`<code>${hooks.text(i + 1, close)}</code>`);
        i = leaf = close + 1;
        continue;
      }
    } else if (c === '*' && source[i + 1] === '*') {
      const close = source.indexOf('**', i + 2);
      if (close > i + 2 && close < end) {
        flush(i);
        out.push(`<strong>${inline(source, i + 2, close, hooks)}</strong>`);
        i = leaf = close + 2;
        continue;
      }
    } else if (c === '[') {
      const link = /^\[([^\]\n]+)\]\((https?:\/\/[^)\s]+|#[^)\s]*)\)/.exec(source.slice(i, end));
      if (link) {
        flush(i);
        out.push(`<a href="${esc(link[2]!)}">${inline(source, i + 1, i + 1 + link[1]!.length, hooks)}</a>`);
        i = leaf = i + link[0].length;
        continue;
      }
    }
    i++;
  }
  flush(end);
  return out.join('');
}
