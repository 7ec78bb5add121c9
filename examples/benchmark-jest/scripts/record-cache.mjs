/**
 * Records llm-cache/ the way you would against real models, but against crosscheck's scripted
 * OpenAI-compatible server on 127.0.0.1 serving the hand-written replies of scripts/replies.mjs
 * (this repository has no live model). It runs `npm run sample` with the cache in read-write mode
 * and the base URL pointing at the server, so the recorded requests are exactly the ones
 * `npm run sample` sends; the port does not enter the cache key (a loopback URL is `localhost`).
 *
 * With real models: point --base-url at your endpoint (key in CROSSCHECK_LLM_API_KEY), name your
 * models in --models, and run `CROSSCHECK_LLM_CACHE=read-write npm run sample`.
 *
 * Usage: npm run record   (then commit llm-cache/)
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { startScriptedLlmServer } from 'crosscheck/llm-testing';
import { ENTRIES, MODELS, replyFor } from './replies.mjs';

const rules = MODELS.flatMap((model) =>
  ENTRIES.flatMap((entry) =>
    [0, 1, 2, 3, 4].map((sample) => ({
      match: { model, lastUserIncludes: `function \`${entry}\``, sample },
      reply: replyFor(model, entry, sample),
    })),
  ),
);
const server = await startScriptedLlmServer({ rules, unmatched: 'error' });
try {
  // npm run sample names http://localhost:8000/v1; the last --base-url wins, so this run talks
  // to the scripted server (same cache key: a loopback URL is `localhost`, without the port).
  const run = spawn('npm', ['run', 'sample', '--', '--base-url', server.url], {
    stdio: 'inherit',
    env: { ...process.env, CI: '', CROSSCHECK_LLM_CACHE: 'read-write' },
  });
  const [status] = await once(run, 'exit');
  console.log(`recorded: ${server.completions().length} requests answered by the scripted server`);
  process.exitCode = status ?? 1;
} finally {
  await server.close();
}
