import { closest, distance } from 'fastest-levenshtein';

/**
 * The known word a mistyped one most likely meant (`--targt` -> `--target`, `fak` -> `fake`), or
 * undefined when none is close: at most one edit in four characters, so a wild guess stays unsaid.
 */
export function closestKnown(word: string, known: readonly string[]): string | undefined {
  if (word === '' || known.length === 0) return undefined;
  const best = closest(word, [...known]);
  const allowed = Math.max(1, Math.floor(Math.max(word.length, best.length) / 4));
  return distance(word, best) <= allowed ? best : undefined;
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
    const long = options.map((o) => `--${o}`);
    return `unknown option ${name}${name.startsWith('--') ? didYouMean(name, long) : ''}`;
  }
  const positional = /^Unexpected argument '([^']+)'/.exec(message)?.[1];
  if (positional !== undefined) return `unexpected argument ${positional}`;
  return message
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .join(' ');
}
