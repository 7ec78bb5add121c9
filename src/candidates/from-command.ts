import { createHash } from 'node:crypto';
import {
  CrosscheckError,
  checkKeys,
  describeValue,
  knownKeys,
  readFlag,
  readLabel,
  readTags,
} from '../errors/index.ts';
import type { CandidateOptions, SourceSpec } from './index.ts';
import { extractCode } from './markdown.ts';
import type { CommandCandidate } from './types.ts';

/** Options of {@link fromCommand}. @public */
export interface CommandOptions extends CandidateOptions {
  /** Name of the function the worker calls in each source. */
  entry: string;
  /** Language of the sources, for code extraction from Markdown and for reports (e.g. `'ruby'`). */
  language: string;
  /**
   * `true` only when **the candidates trust each other**: a worker process then serves one
   * candidate after another, saving a process start per candidate, and any of them can change
   * what the worker does for the next (forge its results, read its inputs). By default (`false`)
   * each candidate gets fresh worker processes that no other candidate ran in.
   */
  shareWorkers?: boolean;
}

const where = 'candidates.fromCommand(command, sources, { entry, language })';

const COMMAND_KEYS = knownKeys<CommandOptions>({
  tags: true,
  label: true,
  entry: true,
  language: true,
  shareWorkers: true,
});
const SPEC_KEYS = knownKeys<SourceSpec>({ source: true, label: true, tags: true });

const fail = (message: string): never => {
  throw new CrosscheckError('INVALID_CANDIDATES', message, { where });
};

/**
 * Candidates of any language, served by an executable that speaks the JSON-lines protocol of
 * `docs/protocol.md`: `fromCommand(['ruby', 'worker.rb'], replies, { entry: 'solve', language: 'ruby' })`.
 * The command is started as worker processes (one process group each, in a fresh temporary
 * directory, with a scrubbed environment); each source is sent to a worker of its own to load,
 * then called on batches of inputs (`shareWorkers: true` lets candidates that trust each other
 * share workers). Pass `['']` as `sources` for a worker that serves a
 * single built-in function.
 * @public
 */
export const fromCommand = (
  command: readonly [string, ...string[]],
  sources: readonly (string | SourceSpec)[],
  options: CommandOptions,
): CommandCandidate[] => {
  if (
    !Array.isArray(command) ||
    command.length === 0 ||
    !command.every((part) => typeof part === 'string') ||
    command[0] === ''
  ) {
    fail(
      `Expected \`command\` to be an array [executable, ...args] of strings, got ${describeValue(command)}. For example ['node', 'worker.mjs'].`,
    );
  }
  if (!Array.isArray(sources)) {
    fail(
      `Expected \`sources\` to be an array of strings (code or LLM replies), got ${describeValue(sources)}.`,
    );
  }
  if (typeof options !== 'object' || options === null) {
    fail(`Expected options { entry, language }, got ${describeValue(options)}.`);
  }
  checkKeys({ where }, options, COMMAND_KEYS);
  const { entry, language } = options;
  if (typeof entry !== 'string' || entry.trim() === '') {
    fail(`Expected \`entry\` to be the name of the function to call, got ${describeValue(entry)}.`);
  }
  if (typeof language !== 'string' || language.trim() === '') {
    fail(
      `Expected \`language\` to name the language of the sources (e.g. 'ruby'), got ${describeValue(language)}.`,
    );
  }
  const baseTags = readTags({ where, field: 'tags' }, options.tags);
  const shareWorkers = readFlag({ where, field: 'shareWorkers' }, options.shareWorkers, false);
  const prefix =
    readLabel({ where, field: 'label' }, options.label) ??
    (typeof baseTags.model === 'string' ? baseTags.model : entry);
  const frozenCommand = Object.freeze([...command]) as unknown as readonly [string, ...string[]];
  return sources.map((raw, i) => {
    const spec: SourceSpec = typeof raw === 'string' ? { source: raw } : raw;
    if (typeof spec !== 'object' || spec === null || typeof spec.source !== 'string') {
      fail(`Expected source ${i} to be a string or { source: string }, got ${describeValue(raw)}.`);
    }
    if (typeof raw === 'object') checkKeys({ where }, spec, SPEC_KEYS, `sources[${i}].`);
    const code = extractCode(spec.source, language, entry);
    const id = createHash('sha256')
      .update(['command', ...command, language, entry, code].join('\0'))
      .digest('hex')
      .slice(0, 12);
    return Object.freeze({
      kind: 'command' as const,
      id,
      label: readLabel({ where, field: `sources[${i}].label` }, spec.label) ?? `${prefix}#${i}`,
      tags: Object.freeze({
        ...baseTags,
        sample: i,
        ...readTags({ where, field: `sources[${i}].tags` }, spec.tags),
      }),
      command: frozenCommand,
      code,
      entry,
      language,
      shareWorkers,
    });
  });
};
