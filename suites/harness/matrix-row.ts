import { expect, inject } from 'vitest';
import { enterMatrixRow } from './run-context.js';

/**
 * A setup file of the conformance project, which vitest imports anew before each check file. The
 * fault matrix (kit/matrix-rows.ts) runs each row's check files as `file.check.ts?matrix-row=N`,
 * the same files again for every row in one worker; for those, this asks the matrix for the row's
 * run before the check file is imported. Every other run leaves it a no-op.
 */
const row = /[?&]matrix-row=(\d+)/.exec(expect.getState().testPath ?? '')?.[1];
const control = inject('matrixControl');
if (row !== undefined && control) await enterMatrixRow(control, Number(row));
