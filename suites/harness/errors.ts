// The verdict vocabulary lives in spec/ so the reporters can read it without importing the suites.
export * from '../../spec/verdicts.js';
