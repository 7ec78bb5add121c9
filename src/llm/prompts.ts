import type { SourceLanguage } from '../candidates/index.ts';
import { CrosscheckError } from '../errors/index.ts';
import type { Task } from '../task/index.ts';
import type { ChatMessage, PromptTemplate } from './types.ts';

const LANGUAGE_NAMES: Record<SourceLanguage, string> = {
  javascript: 'JavaScript',
  typescript: 'TypeScript',
  python: 'Python',
};
const FENCES: Record<SourceLanguage, string> = {
  javascript: 'javascript',
  typescript: 'typescript',
  python: 'python',
};

/** The function a task's candidates define. */
export const entryOf = (task: Task, where: string): string => {
  const entry = task.entry ?? task.name;
  if (!/^[A-Za-z_$][\w$]*$/.test(entry)) {
    throw new CrosscheckError(
      'INVALID_TASK',
      `${where}: task ${JSON.stringify(task.name)} names no function to ask for; give it an \`entry\` (an identifier).`,
      { where },
    );
  }
  return entry;
};

const RULES: Record<SourceLanguage, (entry: string) => string[]> = {
  python: (entry) => [
    `Define \`${entry}\` at the top level of the module. Use only the standard library (Python 3.9 or later).`,
    'When an input is outside what the specification allows, raise `ValueError`.',
    'Do not read input, print, or use files, processes or the network.',
  ],
  javascript: (entry) => [
    `Define \`function ${entry}\` at the top level, without \`export\`. No imports and no \`require\`.`,
    'When an input is outside what the specification allows, throw a `RangeError`.',
    'Do not read input, log, or use files, processes or the network.',
  ],
  typescript: (entry) => [
    `Define \`function ${entry}\` at the top level, without \`export\`, with type annotations. No imports and no \`require\`.`,
    'When an input is outside what the specification allows, throw a `RangeError`.',
    'Do not read input, log, or use files, processes or the network.',
  ],
};

/**
 * crosscheck's own code-generation prompt: one fenced block, a self-contained function, and the
 * language's "invalid input" error (which crosscheck reads as the `invalid` outcome).
 */
const crosscheckPrompt = (task: Task, language: SourceLanguage, entry: string): ChatMessage[] => {
  const lang = LANGUAGE_NAMES[language];
  const parts = [`Write the ${lang} function \`${entry}\`.`];
  if (task.signature) parts.push(`Signature: \`${entry}${task.signature}\``);
  if (task.description) parts.push(`Specification:\n${task.description.trim()}`);
  parts.push(
    `Rules:\n${RULES[language](entry)
      .map((r) => `- ${r}`)
      .join('\n')}`,
  );
  return [
    {
      role: 'system',
      content: `You are an expert ${lang} programmer. Answer with exactly one fenced \`\`\`${FENCES[language]} code block that holds a complete, self-contained implementation, and nothing else: no tests, no usage examples.`,
    },
    { role: 'user', content: parts.join('\n\n') },
  ];
};

/**
 * The incoherence paper's code-generation request, reproduced character for character: it is
 * what the 16 models of `shared/data/humaneval` were asked, so replies recorded there answer
 * exactly this request (a unit test checks all 150 tasks). Python only, as in the paper.
 */
const difftrustPrompt = (task: Task, language: SourceLanguage, entry: string): ChatMessage[] => {
  if (language !== 'python') {
    throw new CrosscheckError(
      'INVALID_OPTION',
      `The 'difftrust' prompt asks for Python, as the paper did; got language ${JSON.stringify(language)}. Use prompt 'crosscheck' for ${LANGUAGE_NAMES[language] ?? language}.`,
      { where: "fromModel(task, { prompt: 'difftrust' })" },
    );
  }
  const head = `${entry}${task.signature ?? '()'}`;
  const description = `\t${(task.description ?? '').replace(/\n/g, '\n\t')}`;
  const user = [
    'Can you write a function with the following specification:',
    '',
    '** Function specification **',
    '',
    'Name:',
    `\t${entry}`,
    '',
    'Signature:',
    `\t${head}`,
    '',
    'Description:',
    description,
    '',
    '',
    'Please write the full code in one go like this :',
    '',
    '```python',
    '# imports ...',
    '# Auxiliary functions and classes ...',
    `def ${head}:`,
    `    # ${entry} code ...`,
    '# End of python code',
    '```',
    '',
    'Please ensure the function adheres strictly to the provided specifications.',
    '',
  ].join('\n');
  return [
    { role: 'system', content: 'You are world class python programmer' },
    { role: 'user', content: user },
  ];
};

/** The messages of a code-generation request for a task. @public */
export const codegenMessages = (
  task: Task,
  language: SourceLanguage,
  template: PromptTemplate = 'crosscheck',
): ChatMessage[] => {
  const entry = entryOf(task, `codegenMessages(task, '${language}', '${template}')`);
  if (template === 'difftrust') return difftrustPrompt(task, language, entry);
  if (template === 'crosscheck') return crosscheckPrompt(task, language, entry);
  throw new CrosscheckError(
    'INVALID_OPTION',
    `\`prompt\` must be 'crosscheck', 'difftrust' or a function (task, language) => messages, got ${JSON.stringify(template)}.`,
    { where: 'fromModel(task, { prompt })' },
  );
};
