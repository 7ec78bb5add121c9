/**
 * A misspelt option never falls back to its default: every public entry point that takes an
 * options object refuses an unknown key with a CrosscheckError naming the key and the nearest
 * known one. The second suite enumerates the public exports, so a new entry point must be
 * listed here (with a misspelt call, or as taking no options object) before the suite passes.
 */
import { tmpdir } from 'node:os';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import '../../matchers/vitest.ts';
import * as matcherEntry from '../../matchers/index.ts';
import CrosscheckJestReporter from '../../reporter/jest.ts';
import CrosscheckReporter from '../../reporter/vitest.ts';
import { runBench } from '../../src/bench/index.ts';
import * as fastCheckEntry from '../../src/fast-check/index.ts';
import * as root from '../../src/index.ts';
import * as llmTesting from '../../src/llm/testing/index.ts';
import { crosscheck } from '../reporter/helpers.ts';

const { candidates, createLlm, defineTask, gen, triangulation, tri } = root;

const task = defineTask({ name: 'inc', inputs: [[1], [2]], reference: (x: number) => x + 1 });
const reviewed = defineTask({
  name: 'inc2',
  description: 'adds one',
  inputs: [[1]],
  reference: (x: number) => x + 1,
});
const pool = candidates.fromFunctions([(x: number) => x + 1, (x: number) => 1 + x]);
// Never contacted: every call below is refused before a request.
const llm = () => createLlm({ model: 'm', baseURL: 'http://127.0.0.1:9/v1', cache: false });

/** One entry point, called with one misspelt key; `nearest` is the known key it should suggest. */
interface Case {
  readonly call: () => unknown;
  readonly key: string;
  readonly nearest: string | null;
}

/** Every public function that takes an options object, by its public name. */
const CASES: Record<string, Case> = {
  measure: {
    call: () => root.measure(task, pool, { seeed: 3, N: 500 } as never),
    key: 'seeed',
    nearest: 'seed',
  },
  detect: {
    call: () => root.detect(task, pool, { epsilion: 0.01 } as never),
    key: 'epsilion',
    nearest: 'epsilon',
  },
  'detect run.*': {
    call: () => root.detect(task, pool, { run: { timeoutMS: 5 } } as never),
    key: 'run.timeoutMS',
    nearest: 'run.timeoutMs',
  },
  run: {
    call: () => root.run(task, pool, [[1]], { timeoutMS: 5 } as never),
    key: 'timeoutMS',
    nearest: 'timeoutMs',
  },
  createLlm: {
    call: () => createLlm({ model: 'm', temprature: 0.2 } as never),
    key: 'temprature',
    // A sampling field one level too high: the nearest known key is the nested one.
    nearest: 'sampling.temperature',
  },
  'createLlm sampling.*': {
    call: () => createLlm({ model: 'm', sampling: { temprature: 0.2 } } as never),
    key: 'sampling.temprature',
    nearest: 'sampling.temperature',
  },
  'createLlm retry.*': {
    call: () => createLlm({ model: 'm', retry: { maxRetrie: 2 } } as never),
    key: 'retry.maxRetrie',
    nearest: 'retry.maxRetries',
  },
  fromModel: {
    call: () => root.fromModel(task, { llm: llm(), n: 2, langauge: 'python' } as never),
    key: 'langauge',
    nearest: 'language',
  },
  'candidates.fromModel': {
    call: () =>
      candidates.fromModel(task, { llm: llm(), n: 2, language: 'python', sampling: { topp: 1 } } as never),
    key: 'sampling.topp',
    nearest: 'sampling.topP',
  },
  fromPipeline: {
    call: () => root.fromPipeline((x: string) => x, { llm: llm(), n: 2, concurency: 2 } as never),
    key: 'concurency',
    nearest: 'concurrency',
  },
  judgedEquivalence: {
    call: () => root.judgedEquivalence({ llm: llm(), specification: 's', chek: [] } as never),
    key: 'chek',
    nearest: 'check',
  },
  fromFunctions: {
    call: () => root.fromFunctions([(x: number) => x], { lable: 'f' } as never),
    key: 'lable',
    nearest: 'label',
  },
  fromSources: {
    call: () =>
      root.fromSources([{ source: 'def f(x): return x', tag: {} }] as never, {
        language: 'python',
        entry: 'f',
      }),
    key: 'sources[0].tag',
    nearest: 'sources[0].tags',
  },
  fromCommand: {
    call: () => root.fromCommand(['ruby'], ['x'], { entry: 'f', langauge: 'ruby' } as never),
    key: 'langauge',
    nearest: 'language',
  },
  configurePython: {
    call: () => root.configurePython({ worker: 2 } as never),
    key: 'worker',
    nearest: 'workers',
  },
  configureReview: {
    call: () => root.configureReview({ treshold: 0.9 } as never),
    key: 'treshold',
    nearest: 'threshold',
  },
  review: {
    call: () => root.review(reviewed, pool[0] as never, { llm: llm(), scenario: 2 } as never),
    key: 'scenario',
    nearest: 'scenarios',
  },
  reviewPool: {
    call: () => root.reviewPool(reviewed, pool, { llm: llm(), measure: { seeed: 1 } } as never),
    key: 'measure.seeed',
    nearest: 'measure.seed',
  },
  reviewStability: {
    call: () => root.reviewStability(reviewed, pool[0] as never, { llm: llm(), rums: 2 } as never),
    key: 'rums',
    nearest: 'runs',
  },
  shrinkWitness: {
    call: () => root.shrinkWitness(null, [1], () => true, { maxStep: 3 } as never),
    key: 'maxStep',
    nearest: 'maxSteps',
  },
  encode: { call: () => root.encode(1, { maxDept: 3 } as never), key: 'maxDept', nearest: 'maxDepth' },
  defineTask: {
    call: () => defineTask({ name: 'f', timeoutMS: 5 } as never),
    key: 'timeoutMS',
    nearest: 'timeoutMs',
  },
  defineHyperproperty: {
    call: () =>
      root.defineHyperproperty({
        name: 'h',
        formula: 'f',
        bijective: true,
        check: async () => true,
        stagee: 'enum',
      } as never),
    key: 'stagee',
    nearest: 'stage',
  },
  triangulate: {
    call: () => root.triangulate(task, pool, { transformation: 'fwd-inv', witnesss: [] } as never),
    key: 'witnesss',
    nearest: 'witnesses',
  },
  triangulationSampler: {
    call: () => root.triangulationSampler(llm(), { temperture: 1 } as never),
    key: 'temperture',
    nearest: 'temperature',
  },
  'triangulation.runTriangulationBench': {
    call: () => triangulation.runTriangulationBench({ data: 'x', sample: 3 } as never),
    key: 'sample',
    nearest: 'samples',
  },
  'tri.fwdInv': { call: () => tri.fwdInv({ inverts: 0 } as never), key: 'inverts', nearest: 'invert' },
  'tri.fwdSinv': {
    call: () => tri.fwdSinv({ bijectiv: true } as never),
    key: 'bijectiv',
    nearest: 'bijective',
  },
  'tri.enumSinv': { call: () => tri.enumSinv({ invrt: 0 } as never), key: 'invrt', nearest: 'invert' },
  'tri.splitSuffix': {
    call: () => tri.splitSuffix(tri.fwdInv(), { lenght: 1 } as never),
    key: 'lenght',
    nearest: 'length',
  },
  'tri.removeLength': {
    call: () => tri.removeLength(tri.fwdInv(), { length: 'n', off: 'xs' } as never),
    key: 'off',
    nearest: 'of',
  },
  'tri.addLength': {
    call: () => tri.addLength(tri.fwdInv(), { oof: 'xs' } as never),
    key: 'oof',
    nearest: 'of',
  },
  'same.text': {
    call: () => root.same.text({ ignorecase: true } as never),
    key: 'ignorecase',
    nearest: 'ignoreCase',
  },
  'same.number': {
    call: () => root.same.number({ ab: 0.01 } as never),
    key: 'ab',
    nearest: 'abs',
  },
  'same.fields': {
    call: () => root.same.fields({}, { rests: 'ignore' } as never),
    key: 'rests',
    nearest: 'rest',
  },
  'gen.fromArbitrary': {
    call: () => gen.fromArbitrary(fc.tuple(fc.nat()), { desc: 'x' } as never),
    key: 'desc',
    nearest: null,
  },
  'gen.fromSignature': {
    call: () => gen.fromSignature('(x: number) => number', { maxLen: 3 } as never),
    key: 'maxLen',
    nearest: null,
  },
  'gen.fromSignature int.*': {
    call: () => gen.fromSignature('(x: number) => number', { int: { min: 0, mx: 3 } } as never),
    key: 'int.mx',
    nearest: 'int.max',
  },
  'gen.fromJsonSchema': {
    call: () => gen.fromJsonSchema({ type: 'integer' }, { arg: 'single' } as never),
    key: 'arg',
    nearest: 'args',
  },
  'gen.fromExamples': {
    call: () => gen.fromExamples([[1]], { languge: 'python' } as never),
    key: 'languge',
    nearest: 'language',
  },
  'gen.fromSeeds': {
    call: () => gen.fromSeeds([[1]], { profil: 'typed' } as never),
    key: 'profil',
    nearest: 'profile',
  },
  'Gen.generate': {
    call: () => gen.fromSeeds([[1]]).generate(2, { seed: 1, maxDraw: 3 } as never),
    key: 'maxDraw',
    nearest: 'maxDraws',
  },
  coherenceProperty: {
    call: () => fastCheckEntry.coherenceProperty(task, pool, { validonly: false } as never),
    key: 'validonly',
    nearest: 'validOnly',
  },
  runBench: { call: () => runBench({ data: 'x', seeed: 1 } as never), key: 'seeed', nearest: 'seed' },
  CrosscheckReporter: {
    call: () => new CrosscheckReporter({ jsno: 'x.json' } as never),
    key: 'jsno',
    nearest: 'json',
  },
  CrosscheckJestReporter: {
    call: () => new CrosscheckJestReporter({ rootDir: tmpdir() } as never, { keepRecord: true } as never),
    key: 'keepRecord',
    nearest: 'keepRecords',
  },
  toBeCoherentAcross: {
    call: () => expect(task).toBeCoherentAcross(pool, { epsilion: 0.01 } as never),
    key: 'epsilion',
    nearest: 'epsilon',
  },
  'toBeCoherentAcross confidence': {
    call: () => expect(task).toBeCoherentAcross(pool, { confidence: 0.95 } as never),
    key: 'confidence',
    nearest: null,
  },
  toHaveIncoherenceBelow: {
    call: () => expect(task).toHaveIncoherenceBelow(0.1, pool, { confidance: 0.9 } as never),
    key: 'confidance',
    nearest: 'confidence',
  },
  toAgreeWithReference: {
    call: () => expect(pool[0]).toAgreeWithReference(task, { maxErorr: 0.1 } as never),
    key: 'maxErorr',
    nearest: 'maxError',
  },
  toRankLike: {
    call: () => expect([1, 2, 3]).toRankLike([1, 2, 3], { minSpearmann: 0.5 } as never),
    key: 'minSpearmann',
    nearest: 'minSpearman',
  },
  toBeTriangulatedBy: {
    call: () => expect(task).toBeTriangulatedBy(pool, { transformation: 'fwd-inv', minSuport: 2 } as never),
    key: 'minSuport',
    nearest: 'minSupport',
  },
  toHavePlausibilityWitness: {
    call: () =>
      expect(pool[0]).toHavePlausibilityWitness(task, { transformation: 'fwd-inv', minn: 2 } as never),
    key: 'minn',
    nearest: 'min',
  },
  toPassGroundedReview: {
    call: () => expect(pool[0]).toPassGroundedReview(reviewed, { llm: llm(), treshold: 0.5 } as never),
    key: 'treshold',
    nearest: 'threshold',
  },
  toRankModels: {
    call: () => expect({}).toRankModels(['a', 'b'], { confidense: 0.9 } as never),
    key: 'confidense',
    nearest: 'confidence',
  },
  rankModels: {
    call: () => root.rankModels([], { seeds: 3 } as never),
    key: 'seeds',
    nearest: 'seed',
  },
  reviewZeroShot: {
    call: () => root.reviewZeroShot(reviewed, pool[0]!, { llm: llm(), temprature: 0 } as never),
    key: 'temprature',
    nearest: 'temperature',
  },
  calibrateThreshold: {
    call: () => root.calibrateThreshold([{ score: 1, correct: true }], { metrc: 'mcc' } as never),
    key: 'metrc',
    nearest: 'metric',
  },
  configureSuite: {
    call: () => matcherEntry.configureSuite({ delta: 0.05, check: 10 } as never),
    key: 'check',
    nearest: 'checks',
  },
  toSatisfyRelation: {
    call: () => expect(task).toSatisfyRelation(root.relations.permutation(), pool, { numruns: 3 } as never),
    key: 'numruns',
    nearest: 'numRuns',
  },
  checkRelation: {
    call: () => root.checkRelation(task, root.relations.permutation(), pool, { sed: 3 } as never),
    key: 'sed',
    nearest: 'seed',
  },
  relationProperty: {
    call: () => root.relationProperty(task, root.relations.permutation(), pool, { validonly: true } as never),
    key: 'validonly',
    nearest: 'validOnly',
  },
  defineRelation: {
    call: () =>
      root.defineRelation({
        name: 'r',
        transform: (i: unknown[]) => i,
        relate: () => true,
        followUp: 2,
      } as never),
    key: 'followUp',
    nearest: 'followUps',
  },
  'relations.define': {
    call: () =>
      root.relations.define({
        name: 'r',
        transform: (i: unknown[]) => i,
        relate: () => true,
        fromOuput: true,
      } as never),
    key: 'fromOuput',
    nearest: 'fromOutput',
  },
  'relations.invariant': {
    call: () => root.relations.invariant({ name: 'r', transform: (i: unknown[]) => i, veiw: 'set' } as never),
    key: 'veiw',
    nearest: 'view',
  },
  'relations.permutation': {
    call: () => root.relations.permutation({ argumnet: 0 } as never),
    key: 'argumnet',
    nearest: 'argument',
  },
  'relations.inverse': {
    call: () => root.relations.inverse((x: unknown) => x, { partnertask: task } as never),
    key: 'partnertask',
    nearest: 'partnerTask',
  },
  'relations.equivalent': {
    call: () => root.relations.equivalent((x: unknown) => x, { equallity: 'strict' } as never),
    key: 'equallity',
    nearest: 'equality',
  },
  neutralizeControls: {
    call: () => root.neutralizeControls('x', { newline: true } as never),
    key: 'newline',
    nearest: 'newlines',
  },
};

/** Public functions that take no options object (positional arguments, or none), and why they need no check. */
const NO_OPTIONS = new Set([
  // semantic equalities: an equality or a key function, positional
  'same.json',
  'same.set',
  'same.list',
  'same.by',
  // rankings: the confidence alone
  'minSharedTasks',
  // saved reports: a path or JSON, and a figure name
  'readReport',
  'perModel',
  // values and outcomes: positional
  'Complex',
  'CrosscheckError',
  'CrosscheckGen',
  'FrozenSet',
  'PyDict',
  'PyFloat',
  'RunAbortedError',
  'Tuple',
  'comparator',
  'decode',
  'formatTagged',
  'fromWire',
  'toWire',
  'pyFloat',
  'tuple',
  'describeOutcome',
  'fromWireOutcome',
  'toWireOutcome',
  'outcomeDigest',
  'valueOutcome',
  'resolveIsolation',
  // predicates, closers, pure helpers
  'isCandidate',
  'isCrosscheckError',
  'isCrosscheckGen',
  'isGen',
  'isTask',
  'closePythonWorkers',
  'closeSandboxPools',
  'certificateText',
  'codegenMessages',
  'costOf',
  'usageTotals',
  'extractCode',
  'subset',
  'unionCompose',
  'recordPropertyRuns',
  'isRelation',
  // crosscheck/fast-check's hooks for the other bridges (relationProperty): positional
  'arbitraryOf',
  'noteEvaluation',
  'noteStart',
  'fenced',
  // tri.* without options
  'tri.stream',
  'tri.unpackTuple',
  'tri.equivalence',
  'tri.offByOne',
  'tri.postcondition',
]);
/** Namespaces of pure functions over numbers and arrays (`stats`) or the triangulation internals with positional arguments. */
const POSITIONAL_NAMESPACES = new Set(['stats']);
const TRIANGULATION_POSITIONAL = new Set([
  'PythonRandom',
  'answers',
  'codeT',
  'combine',
  'createLogic',
  'enumSinvProperty',
  'enumerationSignature',
  'equivalenceProperty',
  'fromOutcome',
  'fwdEnumProperty',
  'fwdInvProperty',
  'fwdSinvProperty',
  'isHyperproperty',
  'isSpecial',
  'majority',
  'maxWitness',
  'offByOneProperty',
  'parameterNames',
  'parseSignature',
  'plurality',
  'postcondition',
  'postconditionProperty',
  'ransac',
  'ransacScores',
  'renderTriangulationTable',
  'resolveSemantics',
  'statelessMapProperty',
  'strongest',
  'subset',
  'tolerate',
  'transformedSignature',
  'triangulationRecord',
  'unionCompose',
]);
/** Test utilities of `crosscheck/llm-testing`, whose options are not checked yet. */
const UNCHECKED_TEST_UTILITIES = new Set(['startDatasetReplayServer', 'startScriptedLlmServer']);

const expectRefused = (error: unknown, c: Case): void => {
  expect(root.isCrosscheckError(error), String(error)).toBe(true);
  const message = (error as Error).message;
  expect(message).toContain(
    `unknown option \`${c.key}\``.replace('option', message.includes('unknown field') ? 'field' : 'option'),
  );
  if (c.nearest) expect(message).toContain(`did you mean \`${c.nearest}\`?`);
  else expect(message).not.toContain('did you mean');
};

describe('unknown option keys', () => {
  it.each(Object.entries(CASES))(
    'should refuse a misspelt key of %s, naming it and the nearest known one',
    async (_name, c) => {
      // Act
      let error: unknown;
      try {
        await c.call();
      } catch (e) {
        error = e;
      }
      // Assert
      expectRefused(error, c);
    },
  );

  it('should list every known key in the message', async () => {
    await expect(root.detect(task, pool, { epsilion: 0.01 } as never)).rejects.toThrow(
      /The options are `inputs`, `seed`, `equality`, `compareErrorMessages`, `unknown`, `shrink`, `run`, `signal`, `epsilon`, `delta`\./,
    );
  });
});

describe('public entry points', () => {
  it('should cover every exported function: checked for unknown keys, or taking no options object', () => {
    // Arrange
    const names: string[] = [];
    const walk = (prefix: string, mod: Record<string, unknown>, depth: number) => {
      for (const [k, v] of Object.entries(mod)) {
        if (typeof v === 'function') names.push(`${prefix}${k}`);
        else if (v && typeof v === 'object' && !Array.isArray(v) && depth === 0)
          walk(`${k}.`, v as Record<string, unknown>, 1);
      }
    };
    walk('', root as unknown as Record<string, unknown>, 0);
    walk('', fastCheckEntry as unknown as Record<string, unknown>, 1);
    walk('', matcherEntry as unknown as Record<string, unknown>, 1);
    walk('', llmTesting as unknown as Record<string, unknown>, 1);
    names.push('CrosscheckReporter', 'CrosscheckJestReporter');
    const covered = (name: string): boolean => {
      const [ns, fn] = name.includes('.') ? (name.split('.') as [string, string]) : [null, name];
      if (ns === 'stats' && POSITIONAL_NAMESPACES.has(ns)) return true;
      if (ns === 'triangulation')
        return TRIANGULATION_POSITIONAL.has(fn) || `${fn}` in CASES || `${name}` in CASES;
      if (ns === 'candidates') return name in CASES || fn in CASES || NO_OPTIONS.has(fn);
      if (ns === 'gen') return name in CASES;
      return name in CASES || NO_OPTIONS.has(name) || UNCHECKED_TEST_UTILITIES.has(name);
    };
    // Act
    const missing = [...new Set(names)].filter((n) => !covered(n));
    // Assert
    expect(missing, 'a public function with no unknown-key case and not listed as taking no options').toEqual(
      [],
    );
  });
});

describe('crosscheck CLI', () => {
  it.each([
    [['bench', '--data', 'x', '--seeed', '1'], 'crosscheck bench: unknown flag `--seeed`', '--seed'],
    [
      ['bench', 'review', '--data', 'x', '--modles', 'a'],
      'crosscheck bench review: unknown flag `--modles`',
      '--models',
    ],
    [
      ['bench', 'triangulation', '--data', 'x', '--sample', '3'],
      'crosscheck bench triangulation: unknown flag `--sample`',
      '--samples',
    ],
    [
      ['sample', '--data', 'x', '--temprature', '1'],
      'crosscheck sample: unknown flag `--temprature`',
      '--temperature',
    ],
    [['report', 'x.json', '--formt', 'json'], 'crosscheck report: unknown flag `--formt`', '--format'],
    [['llm-cache', 'verify', 'x', '--hepl'], 'crosscheck llm-cache: unknown flag `--hepl`', '--help'],
  ])(
    'should refuse an unknown flag of `crosscheck %j`, naming the nearest flag',
    async (args, head, near) => {
      // Act
      const r = await crosscheck(args);
      // Assert
      expect(r.exitCode, r.stderr).toBe(2);
      expect(r.stderr).toContain(`${head}; did you mean \`${near}\`?`);
    },
    120_000,
  );
});
