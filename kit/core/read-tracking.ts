import type { Exchange } from './exchange.js';

/** The parts of an exchange that hold the target's answer: reading one is judging the answer. */
const ANSWER = new Set<PropertyKey>(['status', 'json', 'text', 'headers']);

/**
 * The exchange, telling `onRead` each time its answer is read. A failed assertion has just read
 * the answer it judged, so the exchange read last before a failure is the one that broke the
 * rule, whatever was sent after it (a check may send a dozen refusals, then judge each in turn).
 */
export function trackReads<T extends Exchange>(exchange: T, onRead: () => void): T {
  return new Proxy(exchange, {
    get(target, key, receiver) {
      if (ANSWER.has(key)) onRead();
      return Reflect.get(target, key, receiver);
    },
  });
}

/**
 * Which recorded exchange a check's failure judged: the one whose answer was read last (within
 * the verify() that failed, when it read one), else the last one sent.
 */
export class ReadLog {
  private lastIndex = -1;
  private reads = 0;

  /** Called with the recorded index of an exchange whose answer was read. */
  readonly read = (index: number): void => {
    this.lastIndex = index;
    this.reads++;
  };

  /** A point to compare with: lastReadSince(mark()) is the exchange read last after it. */
  mark(): number {
    return this.reads;
  }

  /** The index of the exchange read last after `mark` (0: since the check began), if any was. */
  lastReadSince(mark = 0): number | undefined {
    return this.reads > mark && this.lastIndex >= 0 ? this.lastIndex : undefined;
  }
}
