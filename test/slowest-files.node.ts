import fs from 'node:fs';
import path from 'node:path';

/**
 * The ten slowest test files of the last `npm test` (its JSON report), for .ci/run to print at
 * the end: a test that got slow is seen the day it lands.
 */
const report = process.argv[2] ?? 'test-results/vitest-report.json';
if (!fs.existsSync(report)) {
  console.log(`no test report at ${report}`);
  process.exit(0);
}
const { testResults } = JSON.parse(fs.readFileSync(report, 'utf8')) as {
  testResults: Array<{ name: string; startTime: number; endTime: number; assertionResults: unknown[] }>;
};
const files = testResults
  .map(({ name, startTime, endTime, assertionResults }) => ({ file: path.relative(process.cwd(), name), seconds: (endTime - startTime) / 1000, tests: assertionResults.length }))
  .sort((a, b) => b.seconds - a.seconds);
console.log('Slowest test files (seconds, tests, file):');
for (const { file, seconds, tests } of files.slice(0, 10)) console.log(`${seconds.toFixed(1).padStart(8)} ${String(tests).padStart(5)}  ${file}`);
