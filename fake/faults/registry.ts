import type { HookFactory } from '../http/hooks.js';
import { FAULTS_BY_NAME, parseFaults } from './catalogue.js';

/**
 * The hooks of the named faults, in name order so that composition is stable; an unknown name is
 * refused with the list of known ones pointed to.
 */
export function faultHooks(names: Iterable<string>): HookFactory[] {
  return [...parseFaults([...names])].sort().map((name) => FAULTS_BY_NAME[name].hooks);
}
