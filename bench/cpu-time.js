// CPU time (user + sys, seconds) of this process's finished children, their own children
// included: on a shared machine wall time says how busy the others were, CPU time says what
// the measured command cost. Linux reads it from /proc/self/stat (cutime, cstime); elsewhere
// it is unknown (undefined) and the benches print wall time alone.
import { readFileSync } from 'node:fs';

/** Clock ticks per second of /proc times: 100 on every Linux the project runs on (getconf CLK_TCK). */
const TICKS = 100;

export function childrenCpuSeconds() {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    // Fields after the command name (which may hold spaces) start at field 3: state.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const cutime = Number(fields[16 - 3]);
    const cstime = Number(fields[17 - 3]);
    return (cutime + cstime) / TICKS;
  } catch {
    return undefined;
  }
}

/** "12.3 s CPU" or "" when CPU time is unknown here. */
export function cpuText(seconds) {
  return seconds === undefined ? '' : `, ${seconds.toFixed(1)} s CPU`;
}

/** The median of numbers (the middle one; the upper middle of an even count). */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}
