import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { nearestKey } from '../../errors/index.ts';
import { slug } from './layout.ts';

const MAX_SCANNED = 2000;

/** Leaves of a JSON value by path (`messages[1].content`). */
const leaves = (value: unknown, path = '', out = new Map<string, unknown>()): Map<string, unknown> => {
  if (value !== null && typeof value === 'object') {
    if (Array.isArray(value)) {
      if (value.length === 0) out.set(path, '[]');
      for (const [i, v] of value.entries()) leaves(v, `${path}[${i}]`, out);
    } else {
      const keys = Object.keys(value);
      if (keys.length === 0) out.set(path, '{}');
      for (const k of keys) leaves((value as Record<string, unknown>)[k], path ? `${path}.${k}` : k, out);
    }
  } else out.set(path, value);
  return out;
};

const clip = (s: string, at: number): string => {
  const from = Math.max(0, at - 24);
  return `${from > 0 ? '…' : ''}${s.slice(from, at + 24)}${at + 24 < s.length ? '…' : ''}`;
};

/** One difference, readable: `messages[1].content at character 812 ("…a" vs "…b")`. */
const describeDiff = (path: string, ours: unknown, theirs: unknown): string => {
  if (typeof ours === 'string' && typeof theirs === 'string') {
    let i = 0;
    while (i < ours.length && i < theirs.length && ours[i] === theirs[i]) i++;
    return `${path} at character ${i} (${JSON.stringify(clip(ours, i))} vs ${JSON.stringify(clip(theirs, i))})`;
  }
  const show = (v: unknown) => (v === undefined ? 'absent' : JSON.stringify(v));
  return `${path} (${show(ours)} vs ${show(theirs)})`;
};

export interface Nearest {
  /** The nearest request, or null when none of the scanned ones qualified. */
  readonly best: { readonly key: string; readonly differences: readonly string[] } | null;
  /** Recorded requests of the model looked at (at most 2000). */
  readonly scanned: number;
}

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** True when some message of a recorded request names `task` as a whole identifier. */
const namesTask = (request: unknown, task: RegExp): boolean => {
  const messages = (request as { messages?: unknown } | null)?.messages;
  return (
    Array.isArray(messages) &&
    messages.some((m) => typeof m?.content === 'string' && task.test(m.content as string))
  );
};

/**
 * The recorded request of the same provider and model closest to `wanted`: fewest differing
 * leaves, then longest common prefix of the canonical text. Prompt drift, the commonest cause of a
 * miss, is then shown rather than guessed. With `task` (the function a codegen request asks
 * for), only requests whose messages name that function qualify: every other task's prompt
 * differs in as many places, and showing one would point at the wrong task.
 */
export const findNearest = async (
  modelRoot: string,
  wanted: object,
  wantedKey: string,
  task?: string,
): Promise<Nearest> => {
  const ours = leaves(wanted);
  const taskPattern = task === undefined ? null : new RegExp(`(?<![\\w$])${escapeRegExp(task)}(?![\\w$])`);
  let best: { key: string; score: number; diffs: string[] } | null = null;
  let scanned = 0;
  const shards = await fs.readdir(modelRoot).catch(() => [] as string[]);
  outer: for (const shard of shards.sort()) {
    const keys = await fs.readdir(join(modelRoot, shard)).catch(() => [] as string[]);
    for (const key of keys.sort()) {
      if (key === wantedKey) continue;
      if (scanned >= MAX_SCANNED) break outer;
      scanned++;
      let request: unknown;
      try {
        request = JSON.parse(await fs.readFile(join(modelRoot, shard, key, 'request.json'), 'utf8'));
      } catch {
        continue;
      }
      if (taskPattern !== null && !namesTask(request, taskPattern)) continue;
      const theirs = leaves(request);
      const diffs: string[] = [];
      for (const path of new Set([...ours.keys(), ...theirs.keys()])) {
        if (ours.get(path) !== theirs.get(path))
          diffs.push(describeDiff(path, ours.get(path), theirs.get(path)));
      }
      if (best === null || diffs.length < best.score) best = { key, score: diffs.length, diffs };
    }
  }
  return { best: best && { key: best.key, differences: best.diffs.slice(0, 3) }, scanned };
};

/** A `/` in a provider or model name is stored as `__` (see `slug`). */
const back = (name: string) => name.replace(/__/g, '/');

/** One recorded model, as its provider's and its own directory names. */
interface RecordedModel {
  readonly provider: string;
  readonly model: string;
}

/** Every model directory of a cache, sorted by provider, then model. */
const recordedModelDirs = async (v1Root: string): Promise<RecordedModel[]> => {
  const out: RecordedModel[] = [];
  const providers = await fs.readdir(v1Root, { withFileTypes: true }).catch(() => []);
  for (const p of providers.sort((a, b) => a.name.localeCompare(b.name))) {
    if (!p.isDirectory()) continue;
    const models = await fs.readdir(join(v1Root, p.name), { withFileTypes: true }).catch(() => []);
    for (const m of models.filter((d) => d.isDirectory()).sort((a, b) => a.name.localeCompare(b.name))) {
      out.push({ provider: p.name, model: m.name });
    }
  }
  return out;
};

/**
 * The models recorded in a cache directory, by provider (`localhost/v1: alpha, beta`), as their
 * directory names read back (a `/` in a name is stored as `__`); empty when there are none.
 */
export const recordedModels = async (v1Root: string): Promise<string[]> => {
  const byProvider = new Map<string, string[]>();
  for (const r of await recordedModelDirs(v1Root)) {
    byProvider.set(r.provider, [...(byProvider.get(r.provider) ?? []), back(r.model)]);
  }
  return [...byProvider].map(([provider, models]) => `${back(provider)}: ${models.sort().join(', ')}`);
};

/**
 * The sentence that names the recorded model a missed request most likely meant, or null: the
 * same model recorded at another provider (the base URL changed since recording), else the
 * nearest name at the same provider (a misspelling), else the nearest name at any provider.
 * "Nearest" is the rule of unknown option keys, so `alhpa` finds `alpha` and `gpt-4` does not
 * find `gpt-4o-mini`.
 */
export const nearestRecordedModel = async (
  v1Root: string,
  provider: string,
  model: string,
): Promise<string | null> => {
  const all = await recordedModelDirs(v1Root);
  const wanted = slug(model);
  const elsewhere = all.find((r) => r.model === wanted && r.provider !== slug(provider));
  if (elsewhere) {
    return `\`${back(elsewhere.model)}\` is recorded at ${back(elsewhere.provider)}, not at ${provider}: is the base URL the one it was recorded with?`;
  }
  const same = nearestKey(
    wanted,
    all.filter((r) => r.provider === slug(provider)).map((r) => r.model),
  );
  if (same !== undefined) return `Did you mean \`${back(same)}\`?`;
  const any = nearestKey(
    wanted,
    all.map((r) => r.model),
  );
  const at = all.find((r) => r.model === any);
  return any !== undefined && at ? `Did you mean \`${back(any)}\` (recorded at ${back(at.provider)})?` : null;
};

/** Sample indexes recorded for one request, as ranges: `0–2, 5`. */
export const recordedSamples = async (dir: string): Promise<string> => {
  const names = await fs.readdir(dir).catch(() => [] as string[]);
  const samples = names
    .filter((n) => /^\d+\.json$/.test(n))
    .map((n) => Number(n.slice(0, -5)))
    .sort((a, b) => a - b);
  if (samples.length === 0) return 'none';
  const parts: string[] = [];
  let from = samples[0] as number;
  let to = from;
  for (const s of [...samples.slice(1), Number.NaN]) {
    if (s === to + 1) to = s;
    else {
      parts.push(from === to ? String(from) : `${from}–${to}`);
      from = s;
      to = s;
    }
  }
  return `sample${samples.length === 1 ? '' : 's'} ${parts.join(', ')}`;
};
