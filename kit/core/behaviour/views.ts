import type { Expect } from './prediction.js';
import type { Fact, KnownCollection, KnownNote, World } from './state.js';

/** Where a note is seen: read by id (GET), in a write's answer, or as an item of a page. */
export type NoteView = 'read' | 'write' | 'list' | 'search' | 'related';

const from = (fact: Fact<unknown>) => `${fact.by.method} ${fact.by.path} left it ${JSON.stringify(fact.value)}`;

/** A field as a fact says it is, blamed on a refusal since when the value it asked for is what is seen. */
function factExpect<T>(
  field: string,
  fact: Fact<T> | undefined,
  is: (value: T) => Expect['is'],
  refusals: KnownNote['refusals'],
  rule = fact?.rule,
): Expect[] {
  if (!fact || !rule) return [];
  return [{ rule, field, is: is(fact.value), context: fact.by, refusals, from: from(fact) }];
}

/**
 * Every field a view shows of a known note, as the state knows it (the caller has made sure the
 * note was settled when the answer was made): content, title, version, the two instants, the
 * trash state and the collections holding it, each under the rule that promises the value.
 */
export function noteFields(n: KnownNote, view: NoteView): Expect[] {
  const out: Expect[] = [
    ...factExpect('content', n.content, (v) => ({ equal: v }), n.refusals),
    ...factExpect('title', n.title, (v) => ({ equal: v }), n.refusals),
    // "The first line of a note's markdown content is its title": a first line of a few plain words is the title itself.
    {
      rule: 'notes.title.first-line',
      field: 'title',
      is: { firstLineOf: 'content' },
      from: "the content's first line",
    },
    ...factExpect('version', n.version, (v) => ({ equal: v }), n.refusals),
    // After set-created-at, lists and searches show the new created_at under their own rule.
    ...factExpect(
      'created_at',
      n.createdAt,
      (v) => ({ instant: v }),
      n.refusals,
      n.createdAt?.rule === 'notes.set-created-at.applied' && view !== 'read' && view !== 'write'
        ? 'notes.set-created-at.lists-follow'
        : n.createdAt?.rule,
    ),
    ...factExpect('updated_at', n.updatedAt, (v) => ({ instant: v }), n.refusals),
  ];
  // "trashed_at holds the time it was trashed": the server time of the trash.
  if (n.trashed?.value && n.trashed.rule === 'notes.trash.sets-trashed-at')
    out.push({
      rule: 'notes.trash.sets-trashed-at',
      field: 'trashed_at',
      is: { serverTimeOf: n.trashed.by },
      context: n.trashed.by,
      from: `the time ${n.trashed.by.method} ${n.trashed.by.path} trashed it`,
    });
  // A read of a trashed note shows it trashed, under both the read's rule and the trash's "remains readable".
  const trashedRules =
    n.trashed?.value && view === 'read'
      ? ['notes.read.trashed-included', 'notes.trash.readable-by-id']
      : [n.trashed?.rule];
  for (const rule of n.trashed ? trashedRules : [])
    out.push({
      rule: rule!,
      field: 'trashed_at',
      is: { trashedAt: n.trashed!.value ? 'set' : 'null' },
      context: n.trashed!.by,
      from: `the note is ${n.trashed!.value ? 'trashed' : 'active'} since ${n.trashed!.by.method} ${n.trashed!.by.path}`,
    });
  if (n.links)
    out.push({
      rule: 'membership.collection-ids.current',
      field: 'collection_ids',
      is: { links: n.links, unlinked: n.unlinked },
      refusals: n.refusals,
      from: `the note is in ${JSON.stringify([...n.links.keys()])}`,
    });
  return out;
}

/**
 * Every field a view shows of a known collection, as the state knows it. `countRule` names the
 * rule that promises note_count where it is shown (undefined: the count is not judged, some member
 * not settled); `fieldRule` the rule every field stands under (a related note's collection summaries).
 */
export function collectionFields(
  world: World,
  c: KnownCollection,
  countRule: string | undefined,
  fieldRule?: string,
): Expect[] {
  const as = <T>(fact: Fact<T> | undefined) => (fact && fieldRule ? { ...fact, rule: fieldRule } : fact);
  const out: Expect[] = [
    ...factExpect('title', as(c.title), (v) => ({ equal: v }), c.refusals),
    ...factExpect('description', as(c.description), (v) => ({ equal: v }), c.refusals),
    ...(fieldRule ? [] : factExpect('created_at', c.createdAt, (v) => ({ instant: v }), c.refusals)),
    ...(fieldRule ? [] : factExpect('updated_at', c.updatedAt, (v) => ({ instant: v }), c.refusals)),
  ];
  const count = countRule ? world.activeCount(c) : undefined;
  if (count !== undefined) {
    // One more than known, after another user's create named the collection: that create linked it.
    const foreign = c.refusals.filter((r) => 'foreignNote' in r.asked);
    out.push({
      rule: countRule!,
      field: 'note_count',
      is: { equal: count },
      refusals: foreign.slice(-1).map((r) => ({ ...r, asked: { note_count: count + 1 } })),
      from: `the collection holds ${count} active note(s) (${[...(c.members ?? [])].join(', ') || 'none'})`,
    });
  }
  return out;
}
