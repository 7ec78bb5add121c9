/**
 * Candidates: the programs under test. Trusted functions, source text as a model replied it
 * (Markdown fences and TypeScript included) and external commands become one `Candidate` shape,
 * labelled and tagged, that the runners of `exec` know how to run.
 * @packageDocumentation
 */
import { createHash } from 'node:crypto';
import {
  CrosscheckError,
  checkKeys,
  describeValue,
  knownKeys,
  readLabel,
  readTags,
} from '../errors/index.ts';
import { fromCommand } from './from-command.ts';
import { extractCode } from './markdown.ts';
import { isProblem, prepareJs } from './prepare-js.ts';
import type {
  Candidate,
  CandidateProblem,
  CandidateTags,
  CommandCandidate,
  EquivalenceSummary,
  FunctionCandidate,
  LlmProvenance,
  LlmUsage,
  PipelineCallResult,
  PipelineGroup,
  PipelineHooks,
  SourceCandidate,
  SourceLanguage,
} from './types.ts';

export { type CommandOptions, fromCommand } from './from-command.ts';
export { extractCode, fencedBlocks } from './markdown.ts';
export type {
  Candidate,
  CandidateProblem,
  CandidateTags,
  CommandCandidate,
  EquivalenceSummary,
  FunctionCandidate,
  LlmProvenance,
  LlmUsage,
  PipelineCallResult,
  PipelineGroup,
  PipelineHooks,
  SourceCandidate,
  SourceLanguage,
};

const LANGUAGES: readonly SourceLanguage[] = ['javascript', 'typescript', 'python'];

const CANDIDATE_KEYS = { tags: true, label: true } as const;

const shortHash = (...parts: string[]): string => {
  const h = createHash('sha256');
  for (const p of parts) h.update(p).update('\0');
  return h.digest('hex').slice(0, 12);
};

/** Options shared by the candidate builders. @public */
export interface CandidateOptions {
  /** Tags put on every candidate (e.g. `{ model: 'gpt-4o', temperature: 0.6 }`); each also gets `sample`. */
  tags?: CandidateTags;
  /** Prefix of the generated labels; defaults to the `model` tag, then the entry or function name. */
  label?: string;
}

/**
 * Trusted in-process functions: `fromFunctions([f, g])` or `fromFunctions({ fast: f, safe: g })`.
 * They are not sandboxed: use them for code you wrote or already import.
 * @public
 */
export const fromFunctions = (
  fns: readonly ((...args: never[]) => unknown)[] | Readonly<Record<string, (...args: never[]) => unknown>>,
  options: CandidateOptions = {},
): FunctionCandidate[] => {
  const where = 'candidates.fromFunctions(fns)';
  if (typeof fns !== 'object' || fns === null) {
    throw new CrosscheckError(
      'INVALID_CANDIDATES',
      `Expected an array or a record of functions, got ${describeValue(fns)}.`,
      { where },
    );
  }
  if (typeof options !== 'object' || options === null) {
    throw new CrosscheckError(
      'INVALID_OPTION',
      `Expected options { tags?, label? }, got ${describeValue(options)}.`,
      { where },
    );
  }
  checkKeys({ where }, options, knownKeys<CandidateOptions>(CANDIDATE_KEYS));
  const tags = readTags({ where, field: 'tags' }, options.tags);
  const prefix = readLabel({ where, field: 'label' }, options.label);
  const entries: Array<[string | undefined, unknown]> = Array.isArray(fns)
    ? (fns as unknown[]).map((f) => [undefined, f])
    : Object.entries(fns);
  return entries.map(([name, fn], i) => {
    if (typeof fn !== 'function') {
      throw new CrosscheckError(
        'INVALID_CANDIDATES',
        `Expected candidate ${name ?? i} to be a function, got ${describeValue(fn)}.`,
        { where },
      );
    }
    const label = name ?? (prefix ? `${prefix}#${i}` : fn.name || `fn#${i}`);
    return Object.freeze({
      kind: 'function' as const,
      id: shortHash('function', label, String(i), fn.toString()),
      label,
      tags: Object.freeze({ ...tags, sample: i }),
      fn: fn as (...args: never[]) => unknown,
    });
  });
};

/** Options of {@link fromSources}. @public */
export interface SourceOptions extends CandidateOptions {
  /** Language of the sources. */
  language: SourceLanguage;
  /** Name of the function to call in each source. */
  entry: string;
}

/** One source, with optional per-source tags and label. @public */
export interface SourceSpec {
  source: string;
  label?: string;
  tags?: CandidateTags;
}

const SOURCE_KEYS = knownKeys<SourceOptions>({ ...CANDIDATE_KEYS, language: true, entry: true });
const SPEC_KEYS = knownKeys<SourceSpec>({ source: true, label: true, tags: true });

/**
 * Untrusted candidates from LLM replies: raw code or Markdown with a fenced block. The code is
 * checked up front; a candidate that does not compile or lacks the entry is still returned, with
 * a `problem` that becomes its outcome on every input, so one bad sample never stops a run.
 * @public
 */
export const fromSources = (
  sources: readonly (string | SourceSpec)[],
  options: SourceOptions,
): SourceCandidate[] => {
  const where = 'candidates.fromSources(sources, { language, entry })';
  if (!Array.isArray(sources)) {
    throw new CrosscheckError(
      'INVALID_CANDIDATES',
      `Expected \`sources\` to be an array of strings (LLM replies or code), got ${describeValue(sources)}.`,
      { where },
    );
  }
  if (typeof options !== 'object' || options === null) {
    throw new CrosscheckError(
      'INVALID_OPTION',
      `Expected options { language, entry }, got ${describeValue(options)}.`,
      { where },
    );
  }
  checkKeys({ where }, options, SOURCE_KEYS);
  const { language, entry } = options;
  if (!LANGUAGES.includes(language)) {
    throw new CrosscheckError(
      'INVALID_OPTION',
      `Expected \`language\` to be one of ${LANGUAGES.map((l) => `'${l}'`).join(', ')}, got ${describeValue(language)}.`,
      { where },
    );
  }
  if (typeof entry !== 'string' || !/^[A-Za-z_$][\w$]*$/.test(entry)) {
    throw new CrosscheckError(
      'INVALID_OPTION',
      `Expected \`entry\` to be the name of the function to call (an identifier), got ${describeValue(entry)}.`,
      { where },
    );
  }
  const baseTags = readTags({ where, field: 'tags' }, options.tags);
  const prefix =
    readLabel({ where, field: 'label' }, options.label) ??
    (typeof baseTags.model === 'string' ? baseTags.model : entry);
  return sources.map((raw, i) => {
    const spec: SourceSpec = typeof raw === 'string' ? { source: raw } : raw;
    if (typeof spec !== 'object' || spec === null || typeof spec.source !== 'string') {
      throw new CrosscheckError(
        'INVALID_CANDIDATES',
        `Expected source ${i} to be a string or { source: string }, got ${describeValue(raw)}.`,
        { where },
      );
    }
    if (typeof raw === 'object') checkKeys({ where }, spec, SPEC_KEYS, `sources[${i}].`);
    const tags = Object.freeze({
      ...baseTags,
      sample: i,
      ...readTags({ where, field: `sources[${i}].tags` }, spec.tags),
    });
    const label = readLabel({ where, field: `sources[${i}].label` }, spec.label);
    const code = extractCode(spec.source, language, entry);
    let prepared: string | null = code;
    let problem: CandidateProblem | null = null;
    let functions: readonly string[] = [];
    if (language !== 'python') {
      const result = prepareJs(code, language, entry);
      if (isProblem(result)) {
        prepared = null;
        problem = result;
      } else {
        prepared = result.wrapper;
        functions = result.functions;
      }
    }
    return Object.freeze({
      kind: 'source' as const,
      id: shortHash(language, entry, code),
      label: label ?? `${prefix}#${i}`,
      tags,
      language,
      entry,
      source: spec.source,
      code,
      prepared,
      problem,
      functions,
    });
  });
};

/** True for any candidate built by this module. @public */
export const isCandidate = (x: unknown): x is Candidate =>
  typeof x === 'object' &&
  x !== null &&
  ['function', 'source', 'command'].includes((x as { kind?: unknown }).kind as string) &&
  typeof (x as { id?: unknown }).id === 'string';

/** The candidate builders, as a namespace. @public */
export const candidates = { fromFunctions, fromSources, fromCommand } as const;
