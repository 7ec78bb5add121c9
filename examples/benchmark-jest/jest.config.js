/** Jest 30 as configured by default (CommonJS), with the crosscheck matchers and reporter. */
module.exports = {
  testEnvironment: 'node',
  setupFilesAfterEnv: ['crosscheck/jest'],
  reporters: ['default', ['crosscheck/jest-reporter', { html: '.crosscheck/report.html' }]],
};
