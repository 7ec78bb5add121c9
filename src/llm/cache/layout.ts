import { join } from 'node:path';

/** A provider or model as a directory name: `Qwen/Qwen2.5-Coder-7B` → `Qwen__Qwen2.5-Coder-7B`. */
export const slug = (name: string): string => name.replace(/\//g, '__').replace(/[^\w.@-]/g, '_');

/** Directory of one request: `v1/<provider>/<model>/<key[0:2]>/<key>`. */
export const requestDir = (root: string, provider: string, model: string, key: string): string =>
  join(root, 'v1', slug(provider), slug(model), key.slice(0, 2), key);

export const entryName = (sample: number): string => `${String(sample).padStart(4, '0')}.json`;

export const entryPath = (
  root: string,
  provider: string,
  model: string,
  key: string,
  sample: number,
): string => join(requestDir(root, provider, model, key), entryName(sample));

export const modelDir = (root: string, provider: string, model: string): string =>
  join(root, 'v1', slug(provider), slug(model));

export const CACHE_README = `# LLM cache (crosscheck)

Recorded model replies, committed so tests replay them bit for bit without a key or a network.

- \`v1/<provider>/<model>/<key[0:2]>/<key>/request.json\`: the request (the part that decides the reply).
- \`NNNN.json\` beside it: sample NNNN of that request, one file each, written once.

Replay is the default under CI (\`CI=true\`): a missing entry is an error naming the file.
Record what is missing where the model is reachable:

    CROSSCHECK_LLM_CACHE=read-write npx vitest run      # then commit llm-cache/

Re-record everything a run touches: \`CROSSCHECK_LLM_CACHE=refresh\`. Nothing expires by itself.
`;

export const CACHE_GITIGNORE = '.tmp/\n.locks/\n';
