import { CONTAINS_KINDS, type ContainsKind, type Profile } from '../../../spec/profile.js';

export type ContentMarkers = NonNullable<Profile['content_markers']>;
type Kind = keyof ContentMarkers;

/**
 * Text with no markup at all (letters, digits, spaces, line breaks, hyphens, commas, a heading's
 * #): no task, image, link or URL a target could read as any contains kind.
 */
const PLAIN = /^[\p{L}\p{N} \n,#-]*$/u;

/**
 * The content kinds a note's markdown carries, by the markers the profile declares (which markup
 * the target counts as an open task, a finished one, an image, a file): the markers it holds, when
 * what is left is plain text; undefined when anything else is in it (whether other markup counts
 * is the target's).
 */
export function contentKinds(content: string, markers: ContentMarkers): ReadonlySet<Kind> | undefined {
  let rest = content;
  const kinds = new Set<Kind>();
  for (const kind of ['open_task', 'done_task', 'image', 'file'] as const) {
    const marker = markers[kind];
    if (!marker || !rest.includes(marker)) continue;
    kinds.add(kind);
    rest = rest.split(marker).join('\n');
  }
  return PLAIN.test(rest) ? kinds : undefined;
}

/**
 * Whether a note with these kinds matches a page kept to the contains filters sent true (they
 * combine with OR): 'open' where the document leaves it to the target, which is whether an image
 * is also file-like or a file link also an image, and any filter whose kind the profile gives no
 * marker for (a note without markup then still matches none).
 */
export function containsMatch(
  kinds: ReadonlySet<Kind>,
  filters: readonly ContainsKind[],
  markers: ContentMarkers,
): 'yes' | 'no' | 'open' {
  let open = false;
  for (const f of filters) {
    const [own, other]: [boolean, boolean] =
      f === 'open_tasks'
        ? [kinds.has('open_task'), false]
        : f === 'tasks'
          ? [kinds.has('open_task') || kinds.has('done_task'), false]
          : f === 'images'
            ? [kinds.has('image'), kinds.has('file')]
            : [kinds.has('file'), kinds.has('image')];
    if (own) return 'yes';
    const declared = f === 'tasks' ? markers.open_task || markers.done_task : markers[KIND_OF[f]];
    if (other || (!declared && kinds.size > 0)) open = true;
  }
  return open ? 'open' : 'no';
}

const KIND_OF = { open_tasks: 'open_task', images: 'image', files: 'file' } as const;

/** The contains filters a list or search sent true; undefined when one was sent otherwise (false means what the target says). */
export function containsSent(input: Readonly<Record<string, unknown>>): ContainsKind[] | undefined {
  const sent = CONTAINS_KINDS.filter((k) => input[k] !== undefined);
  if (sent.some((k) => input[k] !== true && input[k] !== 'true')) return undefined;
  return sent;
}
