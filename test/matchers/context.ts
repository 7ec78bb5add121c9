import type { MatcherContext } from '../../matchers/index.ts';

/** A matcher context like the hosts', without colours, so messages snapshot as plain text. */
export const context = (isNot = false): MatcherContext => ({
  isNot,
  promise: '',
  currentTestName: 'suite > test',
  testPath: '/project/sum.test.ts',
  utils: {
    matcherHint: (name, received = 'received', expected = 'expected', options = {}) =>
      `expect(${received})${options.isNot ? '.not' : ''}.${name}(${expected}${options.secondArgument ? `, ${options.secondArgument}` : ''})`,
    EXPECTED_COLOR: (s) => s,
    RECEIVED_COLOR: (s) => s,
  },
});
