/**
 * The import rules of the layers (README "Layout"; `npm run lint` runs them). Type-only imports
 * count: a cycle through types still ties the modules into one. There is no list of tolerated
 * violations: a new exception is a change to these rules, argued in review.
 */
const PRODUCT = '^(spec|fake|suites|reporters|kit|cli)/';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    { name: 'no-cycle', severity: 'error', comment: 'No import cycle, type-only included.', from: {}, to: { circular: true } },
    {
      name: 'spec-is-the-bottom',
      severity: 'error',
      comment: 'spec/ is data and its readers; it imports no other layer.',
      from: { path: '^spec/' },
      to: { path: PRODUCT, pathNot: '^spec/' },
    },
    {
      name: 'reporters-read-only-spec',
      severity: 'error',
      from: { path: '^reporters/' },
      to: { path: PRODUCT, pathNot: '^(reporters|spec)/' },
    },
    {
      name: 'fake-reads-only-spec',
      severity: 'error',
      comment: 'The fake stands alone (it is published as notes-conformance/fake).',
      from: { path: '^fake/' },
      to: { path: PRODUCT, pathNot: '^(fake|spec)/' },
    },
    {
      name: 'suites-reach-the-target-over-http',
      severity: 'error',
      comment: 'Checks import the harness, the model and spec; the runtime core they may use is kit/core/.',
      from: { path: '^suites/' },
      to: { path: '^(fake|reporters|kit|cli)/', pathNot: '^kit/core/' },
    },
    {
      name: 'harness-imports-no-check',
      severity: 'error',
      comment: 'suites -> harness -> core: the vocabulary of checks knows no check nor the model.',
      from: { path: '^suites/harness/' },
      to: { path: '^suites/', pathNot: '^suites/harness/' },
    },
    {
      name: 'model-imports-no-check',
      severity: 'error',
      from: { path: '^suites/model/' },
      to: { path: '^suites/', pathNot: '^suites/(harness|model)/' },
    },
    {
      name: 'core-is-the-bottom-of-the-kit',
      severity: 'error',
      comment: 'kit/core/ is what checks and the run stand on: it reads spec/ and nothing above it.',
      from: { path: '^kit/core/' },
      to: { path: PRODUCT, pathNot: '^(spec|kit/core)/' },
    },
    {
      name: 'kit-imports-no-cli',
      severity: 'error',
      from: { path: '^kit/' },
      to: { path: '^cli/' },
    },
    {
      name: 'kit-and-cli-import-nothing-from-suites',
      severity: 'error',
      comment: 'The kit starts the checks by path; its runtime is kit/core/, which checks may import.',
      from: { path: '^(kit|cli)/' },
      to: { path: '^suites/' },
    },
    {
      name: 'store-is-the-bottom-of-the-fake',
      severity: 'error',
      comment: 'fake: http -> service -> store.',
      from: { path: '^fake/store/' },
      to: { path: '^fake/(service|http|faults|variants|data)/|^fake/(config|index|instance)\\.ts$' },
    },
    {
      name: 'service-knows-no-http',
      severity: 'error',
      from: { path: '^fake/service/' },
      to: { path: '^fake/(http|faults|variants|data)/|^fake/(config|index|instance)\\.ts$' },
    },
    {
      name: 'http-knows-no-data-nor-entry',
      severity: 'error',
      from: { path: '^fake/http/' },
      to: { path: '^fake/data/|^fake/(index|instance)\\.ts$' },
    },
    {
      name: 'reference-imports-no-fault',
      severity: 'error',
      comment: 'Faults wrap the reference from outside; only the entry points install them.',
      from: { path: '^fake/', pathNot: '^fake/faults/|^fake/(index|instance)\\.ts$' },
      to: { path: '^fake/faults/' },
    },
    {
      name: 'faults-import-no-entry-point',
      severity: 'error',
      from: { path: '^fake/faults/' },
      to: { path: '^fake/(index|instance)\\.ts$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
