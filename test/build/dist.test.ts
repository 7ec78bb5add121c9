import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
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
  });

  it('should emit ESM, CJS and declarations for both', () => {
    for (const file of [
      'index.mjs',
      'index.cjs',
      'index.d.mts',
      'index.d.cts',
      'cli.mjs',
      'sandbox-host.mjs',
      'sandbox-host.cjs',
    ]) {
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

/**
 * The reporter entries as Vitest and Jest load them: `crosscheck/vitest-reporter` default-exports a
 * Vitest reporter class, `crosscheck/jest-reporter` a Jest reporter class (through `.default` with
 * `__esModule` in CJS, which is how Jest unwraps a CommonJS reporter) and `RECORDS_ENV`. Each is
 * constructed and driven through an empty run, so the bundled report code runs too.
 */
const REPORTERS = (load: string) => `
${load}
const { mkdtempSync } = require('node:fs');
const { join } = require('node:path');
const { tmpdir } = require('node:os');
const shape = (Reporter) => ({
  type: typeof Reporter,
  name: Reporter.name,
  methods: Object.getOwnPropertyNames(Reporter.prototype).filter((n) => n !== 'constructor').sort(),
});
const quiet = { terminal: false, json: false, githubSummary: false };
const vitest = new VitestReporter(quiet);
vitest.onTestRunEnd([]);
const jest = new JestReporter({ rootDir: mkdtempSync(join(tmpdir(), 'crosscheck-dist-jest-')) }, quiet);
jest.onRunStart();
jest.onRunComplete();
let misuse;
try {
  new VitestReporter({ html: true });
} catch (error) {
  misuse = [error.name, error.code, error.message];
}
console.log(JSON.stringify({
  vitest: { ...shape(VitestReporter), report: vitest.report.run, checks: vitest.report.summary.suite.checks },
  jest: {
    ...shape(JestReporter),
    RECORDS_ENV,
    recordsDirExported: process.env[RECORDS_ENV] === jest.recordsDir,
    report: jest.report.run,
    lastError: jest.getLastError() ?? null,
  },
  misuse,
}));
`;

const REPORTERS_EXPECTED = {
  vitest: {
    type: 'function',
    name: 'CrosscheckReporter',
    methods: ['onInit', 'onTestRunEnd'],
    report: { framework: 'vitest', shard: null },
    checks: 0,
  },
  jest: {
    type: 'function',
    name: 'CrosscheckJestReporter',
    methods: ['getLastError', 'onRunComplete', 'onRunStart'],
    RECORDS_ENV: 'CROSSCHECK_RECORDS_DIR',
    recordsDirExported: true,
    report: { framework: 'jest', shard: null },
    lastError: null,
  },
  misuse: [
    'CrosscheckError',
    'INVALID_OPTION',
    'crosscheck/vitest-reporter: option `html` must be a file path or false, got true (boolean).',
  ],
};

describe('the built reporter entries', () => {
  it('should load crosscheck/vitest-reporter and crosscheck/jest-reporter from the ESM build', () => {
    // Arrange
    const file = join(OUT, 'reporters.mjs');
    writeFileSync(
      file,
      REPORTERS(`import { createRequire } from 'node:module';
const require = createRequire(import.meta.url);
import VitestReporter from ${JSON.stringify(join(OUT, 'vitest-reporter.mjs'))};
import JestReporter, { RECORDS_ENV } from ${JSON.stringify(join(OUT, 'jest-reporter.mjs'))};`),
    );
    // Act
    const out = execFileSync(process.execPath, [file], { encoding: 'utf8', timeout: 60_000 });
    // Assert
    expect(JSON.parse(out)).toEqual(REPORTERS_EXPECTED);
  });

  it('should load crosscheck/vitest-reporter and crosscheck/jest-reporter from the CJS build', () => {
    // Arrange
    const file = join(OUT, 'reporters.cjs');
    writeFileSync(
      file,
      REPORTERS(`const VitestReporter = require(${JSON.stringify(join(OUT, 'vitest-reporter.cjs'))});
const jestModule = require(${JSON.stringify(join(OUT, 'jest-reporter.cjs'))});
if (jestModule.__esModule !== true) throw new Error('jest-reporter.cjs lacks __esModule: Jest would not unwrap .default');
const { default: JestReporter, RECORDS_ENV } = jestModule;`),
    );
    // Act
    const out = execFileSync(process.execPath, [file], { encoding: 'utf8', timeout: 60_000 });
    // Assert
    expect(JSON.parse(out)).toEqual(REPORTERS_EXPECTED);
  });
});

/**
 * What a user's compiler sees: a project with `skipLibCheck: false` that uses every matcher
 * through the built declarations, against Vitest 4 (installed here) and Vitest 5 (in the temp
 * prefix the matcher type tests install it into, when present).
 */
describe('the built matcher declarations', () => {
  const consumer = (entry: string) => `import ${JSON.stringify(join(OUT, entry))};
import { expect } from 'vitest';
import { candidates, defineTask } from ${JSON.stringify(join(OUT, 'index.mjs'))};

const task = defineTask({ name: 'f' });
const pool = candidates.fromFunctions([(x: number) => x]);
export const checks = async (): Promise<void> => {
  await expect(task).toBeCoherentAcross(pool, { epsilon: 0.1 });
  await expect(task).toHaveIncoherenceBelow(0.2, pool);
  await expect(pool[0]).toAgreeWithReference(task);
  expect([1, 2, 3]).toRankLike([1, 2, 4], { minSpearman: 0.5 });
  // @ts-expect-error the candidates must be candidates
  await expect(task).toBeCoherentAcross('not candidates');
};
`;

  const typecheck = (name: string, entry: string, vitestTypes: string | null): string => {
    const dir = join(OUT, `consumer-${name}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'use.ts'), consumer(entry));
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          skipLibCheck: false,
          noEmit: true,
          types: [],
          ...(vitestTypes ? { paths: { vitest: [vitestTypes] } } : {}),
        },
        files: ['use.ts'],
      }),
    );
    const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    const result = spawnSync(process.execPath, [tsc, '-p', dir], { encoding: 'utf8' });
    return `${result.stdout}${result.stderr}`;
  };

  it('should type every matcher on Vitest 4 through crosscheck/vitest', () => {
    expect(typecheck('vitest4', 'vitest.mjs', null)).toBe('');
  });

  it('should type every matcher on Vitest 5 through crosscheck/vitest/v5', async (ctx) => {
    const v5 = await vitest5Types();
    if (v5 === null) {
      if (process.env.CI)
        throw new Error('Could not install vitest@5 into a temporary prefix for the type test.');
      ctx.skip();
      return;
    }
    expect(typecheck('vitest5', 'vitest5.mjs', v5)).toBe('');
  });
});

/** Vitest 5's types (it needs Node 22 to run, not to type-check), installed once into a temp prefix, never into the repository. */
const vitest5Types = async (): Promise<string | null> => {
  const prefix = process.env.CROSSCHECK_VITEST5_PREFIX ?? join(tmpdir(), 'crosscheck-vitest5');
  const types = join(prefix, 'node_modules', 'vitest', 'dist', 'index.d.ts');
  if (existsSync(types)) return types;
  mkdirSync(prefix, { recursive: true });
  const install = spawnSync(
    'npm',
    ['install', '--no-save', '--no-audit', '--no-fund', '--prefix', prefix, 'vitest@5'],
    {
      encoding: 'utf8',
      timeout: 180_000,
    },
  );
  return install.status === 0 && existsSync(types) ? types : null;
};
