import type { CrosscheckRecord } from './record.ts';

/**
 * Where records written outside a matcher go (the fast-check bridge's property records). A host
 * entry (`crosscheck/vitest`, `crosscheck/jest`) registers how it delivers records to its
 * reporter and which test is running; the engine, which imports no test framework, looks the
 * sink up here. The sink lives on `globalThis` under a registered symbol: the package's entry
 * points are separate bundles, and each would otherwise hold its own copy of this module.
 * @packageDocumentation
 */

/** What a host offers the engine for records written outside a matcher. @public */
export interface RecordSink {
  /** The running test, as far as the host knows: file and full name. Null outside a test. */
  readonly currentTest: () => { readonly file: string | null; readonly name: string | null } | null;
  /** Hands a record to the host's reporter (Vitest's task meta, Jest's records directory). */
  readonly deliver: (record: CrosscheckRecord) => void;
}

const KEY = Symbol.for('crosscheck.recordSink');

type Holder = { [KEY]?: RecordSink };

/**
 * Registers the host's sink (the host entries call this once on load); null unregisters.
 * @public
 */
export const setRecordSink = (sink: RecordSink | null): void => {
  const holder = globalThis as Holder;
  if (sink === null) delete holder[KEY];
  else holder[KEY] = sink;
};

/** The registered sink, or null when no host entry was loaded (records then stay with the caller). @public */
export const recordSink = (): RecordSink | null => (globalThis as Holder)[KEY] ?? null;
