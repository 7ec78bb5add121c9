/** A scripted loopback server in its own process for `npm run bench:llm`; prints its URL, serves until stdin closes. */
import { startScriptedLlmServer } from '../src/llm/testing/index.ts';

const server = await startScriptedLlmServer({
  unmatched: 'counter',
  rules: [
    {
      reply: (req, ctx) => `\`\`\`python\ndef f(x):\n    return x + ${ctx.count} # ${req.sample}\n\`\`\``,
    },
  ],
});
process.stdout.write(`${server.url}\n`);
process.stdin.resume();
process.stdin.on('end', () => void server.close().then(() => process.exit(0)));
