/**
 * Records llm-cache/ the way you would against a real model, but against crosscheck's scripted
 * OpenAI-compatible server on 127.0.0.1 serving the computed replies of scripts/replies.mjs
 * (this repository has no live model). It runs the tests with the cache in read-write mode, so
 * every prompt the tests send is recorded exactly as they send it.
 *
 * With a real model you need none of this: set CROSSCHECK_LLM_BASE_URL and CROSSCHECK_LLM_API_KEY,
 * change the model in test/model.ts, and run `CROSSCHECK_LLM_CACHE=read-write npx vitest run`.
 *
 * Usage: npm run record   (then commit llm-cache/)
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { startScriptedLlmServer } from 'crosscheck/llm-testing';
import { extractionReply, inputsReply, judgeReply, propertiesReply, scenariosReply } from './replies.mjs';

const server = await startScriptedLlmServer({
  rules: [
    { match: { purpose: 'scenarios' }, reply: scenariosReply },
    { match: { purpose: 'properties' }, reply: propertiesReply },
    { match: { purpose: 'inputs' }, reply: (req) => inputsReply(req.lastUser) },
    {
      match: { purpose: 'judge' },
      reply: (req) => judgeReply(req.messages.map((m) => m.content).join('\n')),
    },
    { match: { purpose: 'other' }, reply: (req) => extractionReply(req.lastUser, req.sample ?? 0) },
  ],
  // Anything else (a repair request, say) gets HTTP 400 naming it, and the test that sent it fails.
  unmatched: 'error',
});
try {
  // Asynchronous: the server answers from this process's event loop while the tests run.
  const run = spawn('npx', ['vitest', 'run', ...process.argv.slice(2)], {
    stdio: 'inherit',
    env: {
      ...process.env,
      CI: '',
      CROSSCHECK_LLM_CACHE: 'read-write',
      CROSSCHECK_LLM_BASE_URL: server.url,
    },
  });
  const [status] = await once(run, 'exit');
  console.log(`recorded: ${server.completions().length} requests answered by the scripted server`);
  process.exitCode = status ?? 1;
} finally {
  await server.close();
}
