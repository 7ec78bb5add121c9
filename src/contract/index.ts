/**
 * The contracts every folder may share: the {@link Gen} interface and its argument tuples. This
 * folder imports nothing from the engine, so tasks, runners, generators and measures can all
 * depend on it without depending on each other.
 * @packageDocumentation
 */
export { type Args, GEN_BRAND, type Gen, isGen } from './gen.ts';
