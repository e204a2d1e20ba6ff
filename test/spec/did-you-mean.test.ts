import { parseArgs } from 'node:util';
import { describe, expect, it } from 'vitest';
import { closestKnown, didYouMean, flagProblem } from '../../spec/did-you-mean.js';

describe('did you mean', () => {
  const commands = ['fake', 'matrix', 'profile', 'diff', 'rules'];

  it('offers the known word one slip away: an edit, or two neighbours swapped', () => {
    expect(closestKnown('fak', commands)).toBe('fake');
    expect(closestKnown('rule', commands)).toBe('rules');
    expect(closestKnown('porfile', commands)).toBe('profile');
    expect(closestKnown('prot', ['port', 'target'])).toBe('port');
    expect(didYouMean('validaton', ['validation', 'not_found'])).toBe(' (did you mean validation?)');
  });

  it('stays silent rather than guess wildly', () => {
    for (const word of ['run', 'serve', 'test', 'x', '']) expect(closestKnown(word, commands), word).toBeUndefined();
    expect(closestKnown('out', ['port', 'target'])).toBeUndefined();
    expect(didYouMean('teapot', ['validation'])).toBe('');
  });

  it("turns parseArgs' unknown option into one line with the flag meant", () => {
    const options = { target: { type: 'string' }, token: { type: 'string' } } as const;
    const problem = (args: string[]) => {
      try {
        parseArgs({ args, options, strict: true });
      } catch (error) {
        return flagProblem(error, Object.keys(options));
      }
      return 'parsed';
    };
    expect(problem(['--targt', 'x'])).toBe('unknown option --targt (did you mean --target?)');
    expect(problem(['--tokn=x'])).toBe('unknown option --tokn (did you mean --token?)');
    expect(problem(['--frobnicate'])).toBe('unknown option --frobnicate');
    expect(problem(['-z'])).toBe('unknown option -z');
    expect(problem(['stray'])).toBe('unexpected argument stray');
  });
});
