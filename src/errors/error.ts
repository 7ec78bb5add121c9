const brand = Symbol.for('crosscheck.error');

/** Machine-readable codes of {@link CrosscheckError}. */
export type CrosscheckErrorCode =
  | 'INVALID_TASK'
  | 'INVALID_OPTION'
  | 'INVALID_CANDIDATES'
  | 'INVALID_INPUT'
  | 'UNSERIALIZABLE'
  | 'ABORTED'
  | 'RUNTIME_MISSING'
  | 'INVALID_REPORT'
  | 'INVALID_RELATION'
  | 'IO_ERROR'
  | 'ISOLATION_UNAVAILABLE'
  | 'LLM_CONFIG'
  | 'LLM_REPLAY_MISS'
  | 'LLM_CACHE_CORRUPT'
  | 'LLM_QUOTA'
  | 'LLM_REQUEST_FAILED'
  | 'LLM_BAD_REPLY'
  | 'INTERNAL';

/** The one error class crosscheck throws for misuse and environment problems. */
export class CrosscheckError extends Error {
  /** What went wrong, for programs. */
  readonly code: CrosscheckErrorCode;
  /** The API or option at fault, e.g. `defineTask({ name })`. */
  readonly where: string | undefined;
  readonly [brand] = true;

  constructor(code: CrosscheckErrorCode, message: string, options: { where?: string; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'CrosscheckError';
    this.code = code;
    this.where = options.where;
  }
}

/** True for any {@link CrosscheckError}, from any realm or copy of the package. */
export const isCrosscheckError = (value: unknown): value is CrosscheckError =>
  typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[brand] === true;

/** Short description of a received value for error messages: `42 (number)`, `[object Map] (object)`. */
export const describeValue = (value: unknown): string => {
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  if (typeof value === 'string')
    return `${JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}...` : value)} (string)`;
  if (typeof value === 'function') return `a function ${value.name || '(anonymous)'}`;
  if (Array.isArray(value)) return `an array of length ${value.length}`;
  if (typeof value === 'object') {
    const ctor = (value as object).constructor?.name;
    return ctor && ctor !== 'Object'
      ? `a ${ctor}`
      : `an object with keys [${Object.keys(value).slice(0, 8).join(', ')}]`;
  }
  return `${String(value)} (${typeof value})`;
};

/** Normalizes anything thrown into a `{ name, message }` pair without ever throwing itself. */
export const toErrorInfo = (thrown: unknown): { name: string; message: string } => {
  try {
    if (typeof thrown === 'object' && thrown !== null) {
      const name = (thrown as { name?: unknown }).name;
      const message = (thrown as { message?: unknown }).message;
      return {
        name: typeof name === 'string' && name ? name : ((thrown as object).constructor?.name ?? 'Object'),
        message: typeof message === 'string' ? message : String(thrown),
      };
    }
    return { name: `thrown ${typeof thrown}`, message: String(thrown) };
  } catch {
    return { name: 'Unknown', message: '(the thrown value could not be described)' };
  }
};
