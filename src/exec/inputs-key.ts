import { createHash } from 'node:crypto';

/**
 * A stable key of an input set's wire text, so that workers keep decoded inputs between runs
 * and are sent a set only when they do not hold it. @internal
 */
export const inputsKeyOf = (wire: string): string =>
  createHash('sha256').update(wire).digest('hex').slice(0, 16);
