import { closest, distance } from 'fastest-levenshtein';

/**
 * The known word a mistyped one most likely meant (`targt` -> `target`, `fak` -> `fake`, `prot` ->
 * `port`), or undefined when none is close: at most one edit in three characters, or two neighbours
 * swapped (two edits to Levenshtein, one slip of the fingers), so a wild guess stays unsaid.
 */
export function closestKnown(word: string, known: readonly string[]): string | undefined {
  if (word === '' || known.length === 0) return undefined;
  const best = closest(word, [...known]);
  const allowed = Math.max(1, Math.floor(Math.max(word.length, best.length) / 3));
  return distance(word, best) <= allowed || swapped(word, best) ? best : undefined;
}

/** `a` is `b` with two neighbouring characters swapped. */
function swapped(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  const differ = [...a].flatMap((c, i) => (c === b[i] ? [] : [i]));
  return (
    differ.length === 2 &&
    differ[1] === differ[0]! + 1 &&
    a[differ[0]!] === b[differ[1]!] &&
    a[differ[1]!] === b[differ[0]!]
  );
}

/** " (did you mean --target?)", or '' when no known word is close. */
export function didYouMean(word: string, known: readonly string[]): string {
  const best = closestKnown(word, known);
  return best === undefined ? '' : ` (did you mean ${best}?)`;
}

/**
 * One line for node's parseArgs error: its "Unknown option '--targt'. To specify a positional
 * argument..." becomes "unknown option --targt (did you mean --target?)"; other messages are kept,
 * on one line. `options` are the long names the command knows.
 */
export function flagProblem(error: unknown, options: readonly string[]): string {
  const message = (error as Error).message;
  const unknown = /^Unknown option '([^']+)'/.exec(message)?.[1];
  if (unknown !== undefined) {
    const name = unknown.replace(/=.*$/, '');
    // Compared without the dashes, which every flag shares.
    const near = name.startsWith('--') ? closestKnown(name.slice(2), options) : undefined;
    return `unknown option ${name}${near ? ` (did you mean --${near}?)` : ''}`;
  }
  const positional = /^Unexpected argument '([^']+)'/.exec(message)?.[1];
  if (positional !== undefined) return `unexpected argument ${positional}`;
  return message
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .join(' ');
}
