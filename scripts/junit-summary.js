#!/usr/bin/env node
// The JUnit report in brief, as Markdown for $GITHUB_STEP_SUMMARY (action.yml): the counts and the
// run's wall time of <testsuites>, a line per suite, and the failing and erroring test cases by name.
// Usage: node scripts/junit-summary.js reports/conformance-junit.xml >> "$GITHUB_STEP_SUMMARY"
import { readFileSync } from 'node:fs';
import { convert } from 'xmlbuilder2';

const MAX_LISTED = 50;
const file = process.argv[2];
if (!file) {
  process.stderr.write('usage: junit-summary.js JUNIT_XML\n');
  process.exit(2);
}
const parsed =
  readFileSync(file, 'utf8').trim() === '' ? {} : convert(readFileSync(file, 'utf8'), { format: 'object' });
if (!parsed.testsuites) {
  process.stdout.write(`\nThe JUnit report ${file} holds no <testsuites> element.\n`);
  process.exit(0);
}
const root = parsed.testsuites;
const list = (value) => (value === undefined ? [] : Array.isArray(value) ? value : [value]);
const text = (value) =>
  String(value ?? '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');
// Inline Markdown: one line, the characters GitHub would read as markup escaped.
const md = (value) =>
  text(value)
    .replace(/\s+/g, ' ')
    .replace(/[\\`*_[\]|<>#~]/g, '\\$&');
const counts = (node) =>
  `${node['@tests'] ?? 0} tests, ${node['@failures'] ?? 0} failures, ${node['@errors'] ?? 0} errors, ` +
  `${node['@skipped'] ?? 0} skipped, ${node['@time'] ?? '?'} s`;

const lines = ['', `### JUnit: ${counts(root)}`, '', '| Suite | Tests |', '|---|---|'];
const broken = [];
for (const suite of list(root.testsuite)) {
  lines.push(`| ${md(suite['@name'])} | ${counts(suite)} |`);
  for (const testCase of list(suite.testcase)) {
    const kind = testCase.failure ? 'failure' : testCase.error ? 'error' : undefined;
    if (kind) broken.push(`- **${kind}** ${md(testCase['@name'])}: ${md(testCase[kind]['@message']).slice(0, 300)}`);
  }
}
if (broken.length > 0) {
  lines.push('', `Failures and errors (${broken.length}):`, '', ...broken.slice(0, MAX_LISTED));
  if (broken.length > MAX_LISTED) lines.push(`- and ${broken.length - MAX_LISTED} more in ${md(file)}`);
}
process.stdout.write(`${lines.join('\n')}\n`);
