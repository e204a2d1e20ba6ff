import { randomUUID } from 'node:crypto';

/** Source of UUIDs and opaque ids; seeded for deterministic runs. */
export interface IdSource {
  uuid(): string;
}

/**
 * randomUUID builds its string by concatenating hex pairs, and V8 keeps the tree of pieces (517
 * bytes an id, hashing does not flatten it: 420 MB at the 1,000,000 notes of --generate without a
 * seed); split and join make one flat string of 36 characters (94 bytes with its map entry).
 */
export const randomIds: IdSource = { uuid: () => randomUUID().split('-').join('-') };

/** Deterministic UUID v4 strings from a 32-bit seed (sfc32 generator). */
export function seededIds(seed: number): IdSource {
  let a = 0x9e3779b9,
    b = 0x243f6a88,
    c = 0xb7e15162,
    d = seed >>> 0;
  const next = (): number => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return t >>> 0;
  };
  for (let i = 0; i < 12; i++) next();
  const hex = (n: number) => n.toString(16).padStart(8, '0');
  return {
    uuid() {
      const h = hex(next()) + hex(next()) + hex(next()) + hex(next());
      const variant = ((parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16);
      // join gives one flat string; a template literal would keep a tree of nine pieces (~400 bytes) per id.
      return [
        h.slice(0, 8),
        h.slice(8, 12),
        `4${h.slice(13, 16)}`,
        `${variant}${h.slice(17, 20)}`,
        h.slice(20, 32),
      ].join('-');
    },
  };
}

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && value.length === 36 && UUID_PATTERN.test(value);
}
