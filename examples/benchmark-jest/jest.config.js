/** Jest 30 as configured by default (CommonJS), with the crosscheck matchers and reporter. */
module.exports = {
  testEnvironment: 'node',
  // The checks read the benchmark's reports and compare rankings; they run no candidates. Jest's
  // 5 s default is still too tight for a busy CI runner starting a worker, so allow 30 s.
  testTimeout: 30_000,
  setupFilesAfterEnv: ['crosscheck/jest'],
  reporters: ['default', ['crosscheck/jest-reporter', { html: '.crosscheck/report.html' }]],
};
