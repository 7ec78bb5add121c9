import { describe, expect, it } from 'vitest';
import { fencedBlocks } from '../../src/candidates/index.ts';
import { extractCode } from '../../src/index.ts';

const ADD_JS = 'function add(a, b) {\n  return a + b;\n}';

describe('extractCode', () => {
  it('should return raw code without fences as it is', () => {
    // Arrange
    const reply = `${ADD_JS}\n`;

    // Act
    const code = extractCode(reply, 'javascript', 'add');

    // Assert
    expect(code).toBe(reply);
  });

  it.each([
    ['```js', '```'],
    ['```javascript', '```'],
    ['```JavaScript', '```'],
    ['```', '```'],
    ['~~~js', '~~~'],
    ['````js', '````'],
    ['```js title="add.js"', '```'],
    ['  ```js', '  ```'],
  ])('should take the code of a %s block out of the prose around it', (open, close) => {
    // Arrange
    const reply = `Here is the function:\n\n${open}\n${ADD_JS}\n${close}\n\nIt adds two numbers.`;

    // Act
    const code = extractCode(reply, 'javascript', 'add');

    // Assert
    expect(code).toBe(ADD_JS);
  });

  it('should keep a shorter fence inside a longer one as code', () => {
    // Arrange
    const inner = 'const doc = `\n```\n`;\nfunction add(a, b) {\n  return a + b;\n}';
    const reply = `Sure:\n\`\`\`\`js\n${inner}\n\`\`\`\`\n`;

    // Act
    const code = extractCode(reply, 'javascript', 'add');

    // Assert
    expect(code).toBe(inner);
  });

  it('should read a reply with Windows line endings', () => {
    // Arrange
    const reply = 'Here:\r\n```js\r\nfunction add(a, b) {\r\n  return a + b;\r\n}\r\n```\r\nDone.\r\n';

    // Act
    const code = extractCode(reply, 'javascript', 'add');

    // Assert
    expect(code.replace(/\r/g, '')).toBe(ADD_JS);
  });

  it('should take a block whose closing fence is missing up to the end of the reply', () => {
    // Arrange: CommonMark closes an unterminated fence at the end of the document.
    const cut = `Here is the function:\n\n\`\`\`js\n${ADD_JS}\n`;
    const afterAnother = `Usage:\n\`\`\`js\nadd(1, 2);\n\`\`\`\nCode:\n\`\`\`js\n${ADD_JS}`;

    // Act
    const codes = [extractCode(cut, 'javascript', 'add'), extractCode(afterAnother, 'javascript', 'add')];

    // Assert
    expect(codes).toEqual([ADD_JS, ADD_JS]);
  });

  it('should prefer the block that defines the entry over an earlier usage example', () => {
    // Arrange
    const reply = [
      'You can call it like this:',
      '```js',
      'console.log(add(1, 2)); // 3',
      '```',
      'And here is the implementation:',
      '```js',
      ADD_JS,
      '```',
    ].join('\n');

    // Act
    const code = extractCode(reply, 'javascript', 'add');

    // Assert
    expect(code).toBe(ADD_JS);
  });

  it('should prefer the block that defines the entry over a helper block', () => {
    // Arrange
    const reply = [
      'First a helper:',
      '```python',
      'def _norm(x):',
      '    return x',
      '```',
      'Then the function:',
      '```python',
      'def add(a, b):',
      '    return _norm(a) + _norm(b)',
      '```',
    ].join('\n');

    // Act
    const code = extractCode(reply, 'python', 'add');

    // Assert
    expect(code).toBe('def add(a, b):\n    return _norm(a) + _norm(b)');
  });

  it.each([
    ['const arrow', 'const add = (a, b) => a + b;'],
    ['export function', 'export function add(a, b) { return a + b; }'],
    ['exports property', 'exports.add = function (a, b) { return a + b; };'],
    ['export alias', 'function plus(a, b) { return a + b; }\nexport { plus as add };'],
    ['async function', 'async function add(a, b) { return a + b; }'],
  ])('should recognize a %s as the definition', (_form, definition) => {
    // Arrange
    const reply = `Usage:\n\`\`\`js\nadd(1, 2);\n\`\`\`\nCode:\n\`\`\`js\n${definition}\n\`\`\`\n`;

    // Act
    const code = extractCode(reply, 'javascript', 'add');

    // Assert
    expect(code).toBe(definition);
  });

  it('should find an entry whose name starts with a dollar sign', () => {
    // Arrange
    const reply = 'Usage:\n```js\nfoo();\n```\nCode:\n```js\nfunction $sum(xs) { return 0; }\n```\n';

    // Act
    const code = extractCode(reply, 'javascript', '$sum');

    // Assert
    expect(code).toBe('function $sum(xs) { return 0; }');
  });

  it('should prefer a block in the requested language', () => {
    // Arrange
    const reply = [
      'In JavaScript:',
      '```js',
      ADD_JS,
      '```',
      'In Python:',
      '```python',
      'def add(a, b):',
      '    return a + b',
      '```',
    ].join('\n');

    // Act
    const python = extractCode(reply, 'python', 'add');
    const javascript = extractCode(reply, 'javascript', 'add');

    // Assert
    expect(python).toBe('def add(a, b):\n    return a + b');
    expect(javascript).toBe(ADD_JS);
  });

  it('should fall back to the first block when none mentions the entry', () => {
    // Arrange
    const reply = '```ts\nexport default (a: number) => a;\n```\n```ts\nconst unused = 1;\n```\n';

    // Act
    const code = extractCode(reply, 'typescript', 'identity');

    // Assert
    expect(code).toBe('export default (a: number) => a;');
  });

  it('should fall back to blocks of another language when none is in the requested one', () => {
    // Arrange
    const reply = '```rust\nfn main() {}\n```\n```js\nfunction add(a, b) { return a + b; }\n```\n';

    // Act
    const code = extractCode(reply, 'typescript', 'add');

    // Assert
    expect(code).toBe('function add(a, b) { return a + b; }');
  });

  it('should list every fenced block with its language', () => {
    // Arrange
    const reply = '```JS\na\n```\ntext\n~~~\nb\n~~~\n```python3\nc\n```';

    // Act
    const blocks = fencedBlocks(reply);

    // Assert
    expect(blocks).toEqual([
      { lang: 'js', code: 'a' },
      { lang: '', code: 'b' },
      { lang: 'python3', code: 'c' },
    ]);
  });
});
