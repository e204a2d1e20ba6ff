/** The fake's only source of time, injectable so that property runs replay exactly. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock that moves only when told to (tests, deterministic runs). */
export class ManualClock implements Clock {
  constructor(private current: number) {}
  now(): number {
    return this.current;
  }
  set(ms: number): void {
    this.current = ms;
  }
  advance(ms: number): void {
    this.current += ms;
  }
}

/** A clock that starts at a fixed instant and then advances with real time, strictly increasing. */
export function anchoredClock(startMs: number): Clock {
  const origin = performance.now();
  let last = -Infinity;
  return {
    now() {
      const t = Math.floor(startMs + (performance.now() - origin));
      last = t > last ? t : last;
      return last;
    },
  };
}
