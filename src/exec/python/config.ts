import { CrosscheckError, checkKeys, describeValue, knownKeys } from '../../errors/index.ts';

/** Options of {@link configurePython}. All optional. @public */
export interface PythonOptions {
  /**
   * The interpreter: a command on PATH, a path to an executable, or a virtualenv directory.
   * @defaultValue `$CROSSCHECK_PYTHON`, else `'python3'`
   */
  python?: string;
  /**
   * How many worker processes run Python candidates in parallel.
   * @defaultValue the number of cores
   */
  workers?: number;
}

const PYTHON_KEYS = knownKeys<PythonOptions>({ python: true, workers: true });

interface ResolvedPythonOptions {
  python: string;
  source: string;
  workers: number | undefined;
}

let configured: PythonOptions = {};

/**
 * Sets how Python candidates run, for every later `run` in this process. Without it the
 * interpreter is `$CROSSCHECK_PYTHON` or `python3`. Workers already started for another
 * interpreter stay until idle; see {@link closePythonWorkers}.
 * @public
 */
export const configurePython = (options: PythonOptions): void => {
  const where = 'configurePython({ python, workers })';
  if (typeof options !== 'object' || options === null) {
    throw new CrosscheckError(
      'INVALID_OPTION',
      `Expected an options object, got ${describeValue(options)}.`,
      {
        where,
      },
    );
  }
  checkKeys({ where: 'configurePython(options)' }, options, PYTHON_KEYS);
  if (options.python !== undefined && (typeof options.python !== 'string' || options.python.trim() === '')) {
    throw new CrosscheckError(
      'INVALID_OPTION',
      `Expected \`python\` to be an interpreter command, path or virtualenv directory, got ${describeValue(options.python)}.`,
      { where },
    );
  }
  if (
    options.workers !== undefined &&
    (typeof options.workers !== 'number' || !Number.isInteger(options.workers) || options.workers < 1)
  ) {
    throw new CrosscheckError(
      'INVALID_OPTION',
      `Expected \`workers\` to be a positive integer, got ${describeValue(options.workers)}.`,
      { where },
    );
  }
  configured = { ...options };
};

/** The interpreter and pool size to use now (configuration, then environment, then default). @internal */
export const resolvePythonOptions = (): ResolvedPythonOptions => {
  if (configured.python) {
    return { python: configured.python, source: 'configurePython({ python })', workers: configured.workers };
  }
  const fromEnv = process.env.CROSSCHECK_PYTHON;
  if (fromEnv) return { python: fromEnv, source: 'CROSSCHECK_PYTHON', workers: configured.workers };
  return { python: 'python3', source: 'the default', workers: configured.workers };
};
