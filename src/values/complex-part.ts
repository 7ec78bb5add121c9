import type { Tagged } from './codec-core.ts';

/**
 * A `$complex` part as a float body: `{"$float": x}` (a dataset that tags every Python float)
 * is `x`, the form encoders write. The codec's check has already refused anything else.
 */
export const complexPart = (x: Tagged): Tagged =>
  x !== null && typeof x === 'object' && !Array.isArray(x) && '$float' in x ? (x.$float as Tagged) : x;
