import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../spec/paths.js';
import { instantOf, isUuid, LOCAL_DATE_TIME, readDateTime } from '../../spec/patterns.js';

/** Every .ts file of the kit's side (the fake keeps its own, independent reading of the document). */
function kitSources(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith('.ts')) out.push(path);
    }
  };
  for (const dir of ['spec', 'suites', 'kit', 'reporters', 'cli']) walk(join(packageRoot, dir));
  return out;
}

/** Fragments of a UUID or date-time pattern written out (in a regex literal or a RegExp source). */
const COPIES = [/\{8\}-\[0-9a-f\]\{4\}/i, /\\d\{4\}-\\d\{2\}-\\d\{2\}T/, /\\d\\d-\\d\\dT/, /\(Z\|\[\+-\]/];

describe('the UUID and date-time patterns (spec/patterns.ts)', () => {
  it('are written once on the kit side', () => {
    const copies = kitSources()
      .filter((file) => !file.endsWith(join('spec', 'patterns.ts')))
      .flatMap((file) =>
        readFileSync(file, 'utf8')
          .split('\n')
          .map((line, i) => [line, i] as const)
          .filter(([line]) => COPIES.some((c) => c.test(line)))
          .map(([, i]) => `${relative(packageRoot, file)}:${i + 1}`),
      );
    expect(copies).toEqual([]);
  });

  it('read date-times with the document strictness', () => {
    expect(instantOf('2025-04-11T04:47:14.457Z')).toBe(Date.UTC(2025, 3, 11, 4, 47, 14, 457));
    expect(instantOf('2025-04-11T06:47:14.457123+02:00')).toBe(Date.UTC(2025, 3, 11, 4, 47, 14, 457));
    expect(instantOf('2025-04-11T04:47Z')).toBe(Date.UTC(2025, 3, 11, 4, 47));
    // No designator, a basic-format offset in an extended date-time, a day that does not exist.
    for (const text of ['2025-04-11T04:47:14', '2025-04-11T04:47:14+0200', '2025-02-30T00:00:00Z', 'soon', 42])
      expect(instantOf(text), String(text)).toBeUndefined();
    expect(readDateTime('2025-02-30T00:00:00Z')?.realDate).toBe(false);
    expect(LOCAL_DATE_TIME.test('2025-04-11T04:47:14.5')).toBe(true);
    expect(LOCAL_DATE_TIME.test('2025-04-11T04:47:14Z')).toBe(false);
  });

  it('read UUIDs in either case, and nothing else', () => {
    expect(isUuid('11111111-1111-4111-8111-11111111111A')).toBe(true);
    for (const text of ['note-1', '12345', '11111111111141118111111111111111', 7]) expect(isUuid(text)).toBe(false);
  });
});
