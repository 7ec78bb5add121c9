import { createCodec } from '../../values/index.ts';
import { installHarness } from './harness.ts';
import { workerMain } from './worker-main.ts';

/**
 * Source text of a function, made standalone. Transpilers that keep function names (esbuild
 * under tsx and Vitest) insert calls to a module-level `__name` helper that the text alone does
 * not carry; a lexical no-op stands in for it (it only sets `.name`). Strict mode, because the
 * text is evaluated as a script: a sloppy function is what `fn.caller` hands to candidate code
 * it calls.
 */
export const standalone = (fn: (...args: never[]) => unknown): string =>
  `(() => { 'use strict'; const __name = (target) => target; return (${fn.toString()}); })()`;

let cached: string | undefined;

/** The worker's whole program as text, for `new Worker(source, { eval: true })`. */
export const workerSource = (): string => {
  cached ??= `'use strict';\n${standalone(workerMain)}(require, ${JSON.stringify(standalone(createCodec))}, ${JSON.stringify(standalone(installHarness))});\n`;
  return cached;
};
