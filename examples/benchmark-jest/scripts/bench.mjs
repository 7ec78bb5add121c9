/**
 * `crosscheck bench` as the CI matrix runs it, on one machine: for each seed, each shard of the
 * (model, task) pairs separately, then `crosscheck report merge` joins the shards into the report
 * of the unsharded run, and `crosscheck report` renders the first seed's as HTML.
 *
 * Usage: npm run bench [-- --seeds 1,2 --shards 2]
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { seeds: { type: 'string' }, shards: { type: 'string' } } });
const seeds = (values.seeds ?? '1,2').split(',');
const k = Number(values.shards ?? '2');
const crosscheck = (...args) => execFileSync('npx', ['crosscheck', ...args], { stdio: 'inherit' });

mkdirSync('results', { recursive: true });
for (const seed of seeds) {
  const shards = [];
  for (let i = 1; i <= k; i++) {
    const out = `results/seed-${seed}.shard-${i}-of-${k}.json`;
    // m = 5 candidates per task (all five samples), n = 200 inputs per task.
    crosscheck(
      'bench',
      '--data',
      'sampled',
      '--m',
      '5',
      '--n',
      '200',
      '--seed',
      seed,
      '--shard',
      `${i}/${k}`,
      '--out',
      out,
    );
    shards.push(out);
  }
  crosscheck('report', 'merge', ...shards, '--out', `results/seed-${seed}.json`);
}
crosscheck('report', `results/seed-${seeds[0]}.json`, '--format', 'html', '--out', 'results/report.html');
