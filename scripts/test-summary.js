#!/usr/bin/env node
// Prints vitest's JSON results as one plain line CI recognises: "tests: N passed, N failed".
import fs from 'node:fs';
const file = process.argv[2] ?? '.vitest-tmp/results.json';
let passed = 0;
let failed;
try {
  const r = JSON.parse(fs.readFileSync(file, 'utf8'));
  passed = r.numPassedTests ?? 0;
  failed = r.numFailedTests ?? 0;
  // A suite that failed to load has no failed tests of its own, but is a failure.
  if (!r.success && failed === 0) failed = Math.max(1, r.numFailedTestSuites ?? 0);
} catch {
  failed = 1;
}
console.log(`tests: ${passed} passed, ${failed} failed`);
