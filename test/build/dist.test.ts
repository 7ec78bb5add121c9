import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * The published shape: build with tsdown into a scratch folder inside the project (so the
 * package's python/ folder is found by walking up, as from an install), then load the ESM and
 * the CJS build in fresh Node processes and run sandboxed JavaScript and Python through each.
 * This is what catches a bundler that breaks the worker's source text or the harness path.
 */

const ROOT = join(import.meta.dirname, '..', '..');
const OUT = join(ROOT, 'node_modules', '.cache', 'crosscheck-build-test');

const SCRIPT = (load: string) => `
${load}
(async () => {
  const task = defineTask({ name: 'add', timeoutMs: 300 });
  const cs = [
    ...candidates.fromSources(['function add(a, b) { return a + b }', 'function add(a, b) { for (;;) {} }'], { language: 'javascript', entry: 'add' }),
    ...candidates.fromSources(['def add(a, b):\\n    return a * b\\n'], { language: 'python', entry: 'add' }),
  ];
  const m = await run(task, cs, [[1, 2], [3, 4]]);
  console.log(JSON.stringify(m.outcomes.map((row) => row.map(describeOutcome))));
  await closeSandboxPools();
  await closePythonWorkers();
})();
`;

const EXPECTED = [
  ['3', '7'],
  ['timeout after 300 ms (call)', 'timeout after 300 ms (call)'],
  ['2', '12'],
];

describe('the built package', () => {
  beforeAll(() => {
    rmSync(OUT, { recursive: true, force: true });
    execFileSync(
      process.execPath,
      [join(ROOT, 'node_modules', 'tsdown', 'dist', 'run.mjs'), '--out-dir', OUT, '--log-level', 'error'],
      {
        cwd: ROOT,
        stdio: 'pipe',
      },
    );
    mkdirSync(OUT, { recursive: true });
  }, 120_000);

  it('should emit ESM, CJS and declarations for both', () => {
    for (const file of ['index.mjs', 'index.cjs', 'index.d.mts', 'index.d.cts', 'cli.mjs']) {
      expect(existsSync(join(OUT, file)), file).toBe(true);
    }
  });

  it('should run sandboxed JavaScript and Python from the ESM build', () => {
    const file = join(OUT, 'smoke.mjs');
    writeFileSync(
      file,
      SCRIPT(
        `import { candidates, closePythonWorkers, closeSandboxPools, defineTask, describeOutcome, run } from ${JSON.stringify(join(OUT, 'index.mjs'))};`,
      ),
    );
    const out = execFileSync(process.execPath, [file], { encoding: 'utf8', timeout: 60_000 });
    expect(JSON.parse(out)).toEqual(EXPECTED);
  });

  it('should run sandboxed JavaScript and Python from the CJS build', () => {
    const file = join(OUT, 'smoke.cjs');
    writeFileSync(
      file,
      SCRIPT(
        `const { candidates, closePythonWorkers, closeSandboxPools, defineTask, describeOutcome, run } = require(${JSON.stringify(join(OUT, 'index.cjs'))});`,
      ),
    );
    const out = execFileSync(process.execPath, [file], { encoding: 'utf8', timeout: 60_000 });
    expect(JSON.parse(out)).toEqual(EXPECTED);
  });
});
