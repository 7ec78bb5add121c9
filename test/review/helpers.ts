import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLlm, type Llm } from '../../src/llm/index.ts';
import type { ScriptedRule } from '../../src/llm/testing/index.ts';

/** A fresh cache directory, removed by the returned cleanup. */
export const tempCache = (): { dir: string; cleanup: () => void } => {
  const dir = mkdtempSync(join(tmpdir(), 'crosscheck-review-'));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
};

/** A client of the scripted server with its own cache. */
export const client = (
  url: string,
  dir: string,
  mode: 'read-write' | 'replay-only' | 'off' = 'read-write',
  model = 'gen-test',
): Llm =>
  createLlm({
    model,
    baseURL: url,
    cache: { dir, mode },
    retry: { maxRetries: 0 },
    prices: { [model]: { input: 1, output: 2 } },
  });

/** The INPUT and OUTPUT blocks of a judge prompt: the delimiters make them reliable to read. */
export const judgeBlocks = (text: string): { input: string; output: string } => {
  const input = /<<<INPUT\n([\s\S]*?)\nINPUT>>>/.exec(text)?.[1];
  const output = /<<<OUTPUT\n([\s\S]*?)\nOUTPUT>>>/.exec(text)?.[1];
  if (input === undefined || output === undefined)
    throw new Error(`not a judge prompt: ${text.slice(0, 200)}`);
  return { input, output };
};

/** A scenarios reply with these titles (each its own choice and behavior). */
export const scenariosReply = (titles: readonly string[]): string =>
  `Here are the scenarios.\n\`\`\`json\n${JSON.stringify({
    scenarios: titles.map((t) => ({
      title: t,
      category: 'input',
      choice: t,
      preconditions: 'none',
      behavior: `as specified for ${t}`,
    })),
  })}\n\`\`\``;

/** A reply holding one fenced block of lines. */
export const block = (lines: readonly string[], lang = 'json'): string =>
  `\`\`\`${lang}\n${lines.join('\n')}\n\`\`\``;

/** What a generator script says per scenario: the reply to the first ask, then to each repair. */
export interface ScenarioScript {
  readonly inputs: string;
  readonly repairs?: readonly string[];
}

/**
 * Rules of a scripted generator: fixed scenarios and properties, per-scenario inputs and repairs
 * (the n-th repair ask of a scenario gets `repairs[n]`), and a judge function over the blocks.
 */
export const generatorRules = (
  titles: readonly string[],
  perScenario: Readonly<Record<string, ScenarioScript>>,
  judge: (input: string, output: string) => string,
): ScriptedRule[] => {
  const repairsAsked = new Map<string, number>();
  const scenarioOf = (text: string): string => /Scenario (S\d+):/.exec(text)?.[1] ?? '?';
  return [
    { match: { purpose: 'scenarios' }, reply: scenariosReply(titles) },
    { match: { purpose: 'properties' }, reply: block(['{"parameters": [], "exceptions": []}']) },
    {
      match: { purpose: 'inputs' },
      reply: (req) => perScenario[scenarioOf(req.lastUser)]?.inputs ?? block([]),
    },
    {
      match: { purpose: 'repair' },
      reply: (req) => {
        const id = scenarioOf(req.lastUser);
        const n = repairsAsked.get(id) ?? 0;
        repairsAsked.set(id, n + 1);
        return perScenario[id]?.repairs?.[n] ?? block([]);
      },
    },
    {
      match: { purpose: 'judge' },
      reply: (req) => {
        const { input, output } = judgeBlocks(req.messages.find((m) => m.role === 'user')?.content ?? '');
        return judge(input, output);
      },
    },
  ];
};

export const CORRECT = (why = 'It conforms.'): string => `${why}\nVERDICT: CORRECT`;
export const INCORRECT = (why = 'It does not conform.'): string => `${why}\nVERDICT: INCORRECT`;
