import { describe, expect, it } from 'vitest';
import { fencedBlocks } from '../../src/candidates/index.ts';
import { extractCode } from '../../src/index.ts';

/**
 * Replies that made the old fence regex backtrack: many opening fences that never close, each of
 * which made the lazy body scan to the end of the text (quadratic and worse). A reply is
 * attacker-controlled text; extraction must stay linear. No wall-time assertion: with the old
 * regex a 1 MB reply of these takes hours, so the generous test timeout is what fails.
 */
const MB = 1024 * 1024;
const adversarial: Array<[string, (n: number) => string]> = [
  ['unclosed openings', (n) => '\n```js\nx'.repeat(Math.ceil(n / 8)).slice(0, n)],
  ['openings with long infos', (n) => `\n\`\`\`${'a'.repeat(200)}\n`.repeat(Math.ceil(n / 206)).slice(0, n)],
  ['fence characters only', (n) => '`'.repeat(n)],
  ['mixed marker runs', (n) => '\n````\n```\n~~~~\n'.repeat(Math.ceil(n / 16)).slice(0, n)],
  ['blank lines with tabs', (n) => '\n \t```\t \r'.repeat(Math.ceil(n / 9)).slice(0, n)],
];

describe('fencedBlocks on hostile replies', () => {
  it.each(adversarial)('should read a 1 MB reply of %s in one pass', { timeout: 60_000 }, (_name, make) => {
    // Arrange
    const reply = make(MB);

    // Act
    const code = extractCode(reply, 'javascript', 'f');

    // Assert
    expect(typeof code).toBe('string');
  });

  it('should keep the code of a block whose last line is blank', () => {
    // Arrange
    const reply = 'x\n```py\ndef f():\n    return 1\n\n```\n';

    // Act
    const blocks = fencedBlocks(reply);

    // Assert
    expect(blocks).toEqual([{ lang: 'py', code: 'def f():\n    return 1\n' }]);
  });

  it('should read an empty block and a block closed at the end of the text', () => {
    // Arrange
    const reply = '```js\n```\ntext\n~~~py\nprint(1)\n~~~';

    // Act
    const blocks = fencedBlocks(reply);

    // Assert
    expect(blocks).toEqual([
      { lang: 'js', code: '' },
      { lang: 'py', code: 'print(1)' },
    ]);
  });
});
