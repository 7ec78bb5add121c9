import { promises as fs } from 'node:fs';
import { join, relative } from 'node:path';
import { CrosscheckError } from '../../errors/index.ts';
import { canonicalJson, requestKey } from '../request.ts';
import { entryProblem } from './entry.ts';

/** One thing wrong in a cache directory. */
export interface CacheProblem {
  /** Path relative to the cache directory. */
  readonly path: string;
  readonly why: string;
}

/** What `verifyCache` found. */
export interface CacheVerification {
  readonly dir: string;
  readonly requests: number;
  readonly entries: number;
  readonly problems: readonly CacheProblem[];
}

const CONFLICT = /^(<<<<<<<|=======|>>>>>>>)/m;
const ENTRY = /^\d{4,}\.json$/;

const parse = (text: string): { value: unknown } | { why: string } => {
  try {
    return { value: JSON.parse(text) };
  } catch (error) {
    return {
      why: CONFLICT.test(text) ? 'it holds merge-conflict markers' : `not JSON: ${(error as Error).message}`,
    };
  }
};

const dirs = async (path: string): Promise<string[]> =>
  (await fs.readdir(path, { withFileTypes: true }))
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();

/**
 * Checks a committed LLM cache directory the way a replay reads it (design A5): every
 * `request.json` parses and hashes to the key naming its directory, every `NNNN.json` is a valid
 * entry for that key and sample, no file holds merge-conflict markers, no quarantined
 * (`.corrupt-…`) or stray file is left, and no entry lacks its request. Reads only.
 * @throws CrosscheckError `INVALID_OPTION` when `dir` is not a cache directory.
 */
export const verifyCache = async (dir: string): Promise<CacheVerification> => {
  const v1 = join(dir, 'v1');
  const st = await fs.stat(v1).catch(() => null);
  if (!st?.isDirectory()) {
    const exists = await fs.stat(dir).catch(() => null);
    throw new CrosscheckError(
      'INVALID_OPTION',
      exists
        ? `${dir} is not an LLM cache directory: it has no v1/ folder (a cache holds v1/<provider>/<model>/<key[0:2]>/<key>/). Pass the directory given as cache.dir or CROSSCHECK_LLM_CACHE_DIR, e.g. llm-cache.`
        : `${dir} does not exist. Pass the LLM cache directory, e.g. llm-cache.`,
      { where: 'llm-cache verify' },
    );
  }
  const problems: CacheProblem[] = [];
  const problem = (path: string, why: string) => problems.push({ path: relative(dir, path), why });
  let requests = 0;
  let entries = 0;
  for (const provider of await dirs(v1)) {
    for (const model of await dirs(join(v1, provider))) {
      for (const shard of await dirs(join(v1, provider, model))) {
        const shardDir = join(v1, provider, model, shard);
        for (const key of await dirs(shardDir)) {
          const keyDir = join(shardDir, key);
          if (key.slice(0, 2) !== shard) problem(keyDir, `its key does not start with its folder ${shard}`);
          const names = (await fs.readdir(keyDir)).sort();
          let requestOk = false;
          if (names.includes('request.json')) {
            requests++;
            const got = parse(await fs.readFile(join(keyDir, 'request.json'), 'utf8'));
            if ('why' in got) problem(join(keyDir, 'request.json'), got.why);
            else {
              const actual = requestKey(canonicalJson(got.value));
              if (actual !== key)
                problem(
                  join(keyDir, 'request.json'),
                  `the request hashes to ${actual}, not to the key ${key} naming its folder (edited by hand?)`,
                );
              else requestOk = true;
            }
          }
          for (const name of names) {
            const path = join(keyDir, name);
            if (name === 'request.json') continue;
            if (!ENTRY.test(name)) {
              problem(
                path,
                name.includes('.corrupt-')
                  ? 'a quarantined file: restore the entry from git or delete it'
                  : 'not a cache file (expected request.json or NNNN.json)',
              );
              continue;
            }
            entries++;
            const got = parse(await fs.readFile(path, 'utf8'));
            if ('why' in got) {
              problem(path, got.why);
              continue;
            }
            const why = entryProblem(got.value, key, Number(name.slice(0, -5)));
            if (why !== null) problem(path, why);
            else if (!names.includes('request.json')) problem(path, 'its request.json is missing');
            else if (!requestOk) problem(path, 'its request.json is not valid, so it can never replay');
          }
        }
      }
    }
  }
  return { dir, requests, entries, problems };
};
