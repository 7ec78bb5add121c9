import { CrosscheckError, describeValue } from '../errors/index.ts';
import type { Llm } from './types.ts';

/**
 * The `llm` option of a builder that calls the model: a client from createLlm(...) with the
 * method the builder uses, or a typed error naming the call it was given to.
 * @internal
 */
export const requireLlm = (where: string, value: unknown, method: 'chat' | 'sampleCandidates'): Llm => {
  const llm = value as Llm | undefined;
  if (typeof llm !== 'object' || llm === null || typeof llm[method] !== 'function') {
    throw new CrosscheckError(
      'INVALID_OPTION',
      `${where}: \`llm\` must be a client from createLlm(...), got ${describeValue(llm)}.`,
      { where: `${where}: llm` },
    );
  }
  return llm;
};
