import { describe, expect, it } from 'vitest';
import { containsMatch, containsSent, contentKinds } from '../../../kit/core/behaviour/content-kinds.js';

const markers = {
  open_task: '- [ ] an open task',
  done_task: '- [x] a finished task',
  image: '![diagram](https://example.com/diagram.png)',
  file: '[report](https://example.com/report.pdf)',
};
const kinds = (content: string) => {
  const k = contentKinds(content, markers);
  return k && [...k].sort();
};

describe('content kinds by the profile markers', () => {
  it('tells the markers a note holds when the rest is plain text', () => {
    expect(kinds('Model word\nbody word\nnotes-conformance run abc1')).toEqual([]);
    expect(kinds(`# Model word\n${markers.open_task}\nrun 7`)).toEqual(['open_task']);
    expect(kinds(`Title\n${markers.image}\n${markers.done_task}`)).toEqual(['done_task', 'image']);
  });

  it('cannot tell when any other markup is in the content', () => {
    expect(kinds('Title\n- [ ] another task')).toBeUndefined();
    expect(kinds('see https://example.com/x.pdf')).toBeUndefined();
    expect(kinds(`Title\n${markers.file}\n![x](y.png)`)).toBeUndefined();
  });
});

describe('whether a note matches the contains filters sent', () => {
  const of = (...k: Array<keyof typeof markers>) => new Set(k);
  it('combines several filters with OR', () => {
    expect(containsMatch(of('open_task'), ['open_tasks', 'images'], markers)).toBe('yes');
    expect(containsMatch(of('done_task'), ['open_tasks', 'images'], markers)).toBe('no');
    expect(containsMatch(of('done_task'), ['tasks'], markers)).toBe('yes');
    expect(containsMatch(of(), ['open_tasks', 'tasks', 'images', 'files'], markers)).toBe('no');
  });

  it('leaves open whether an image is file-like, and the reverse', () => {
    expect(containsMatch(of('image'), ['files'], markers)).toBe('open');
    expect(containsMatch(of('file'), ['images'], markers)).toBe('open');
    expect(containsMatch(of('file'), ['images', 'open_tasks'], markers)).toBe('open');
  });

  it('leaves open a kind the profile gives no marker for, unless the note has no markup', () => {
    const noImage = { open_task: markers.open_task };
    expect(containsMatch(of('open_task'), ['images'], noImage)).toBe('open');
    expect(containsMatch(of(), ['images'], noImage)).toBe('no');
  });

  it('reads only filters sent true', () => {
    expect(containsSent({ open_tasks: true, images: 'true', limit: 5 })).toEqual(['open_tasks', 'images']);
    expect(containsSent({ open_tasks: true, images: false })).toBeUndefined();
    expect(containsSent({})).toEqual([]);
  });
});
