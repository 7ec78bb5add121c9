import { decode } from '../../values/codec.ts';
import type { Tagged } from '../../values/codec-core.ts';
import type { ErrorOutcome, Outcome, ValueOutcome } from '../outcome.ts';

/**
 * The outcome of a call that returned, kept as the JSON text the worker sent and parsed on first
 * read of any field. Retaining 100,000 parsed trees costs the host more than running the calls
 * costs the workers (mostly garbage collection), and validating each on arrival costs a parse
 * too; a string each is cheap to keep.
 *
 * Because even `kind` is read through the parse, text that is not JSON (only a candidate that
 * forges lines on the worker's reply pipe can produce it) reads as an `error` outcome named
 * `ProtocolError`, never as a value and never as a throw.
 * @internal
 */
class TextOutcome {
  #text: string | null;
  #tagged: Tagged = null;
  #broken: string | null = null;
  #decoded = false;
  #value: unknown;

  constructor(text: string) {
    this.#text = text;
  }

  #parse(): void {
    if (this.#text === null) return;
    try {
      this.#tagged = JSON.parse(this.#text) as Tagged;
    } catch {
      this.#broken = `the worker sent a result that is not JSON (${this.#text.slice(0, 80)}); something wrote to its reply pipe`;
    }
    this.#text = null;
  }

  get kind(): 'value' | 'error' {
    this.#parse();
    return this.#broken === null ? 'value' : 'error';
  }

  get tagged(): Tagged {
    this.#parse();
    return this.#tagged;
  }

  get value(): unknown {
    if (!this.#decoded) {
      this.#value = decode(this.tagged);
      this.#decoded = true;
    }
    return this.#value;
  }

  get name(): string | undefined {
    this.#parse();
    return this.#broken === null ? undefined : 'ProtocolError';
  }

  get message(): string | undefined {
    this.#parse();
    return this.#broken ?? undefined;
  }

  toJSON(): unknown {
    return this.kind === 'value'
      ? { kind: 'value', tagged: this.tagged }
      : { kind: 'error', name: this.name, message: this.message };
  }
}

/** A value outcome from its JSON text (see {@link TextOutcome}). @internal */
export const textOutcome = (text: string): Outcome =>
  new TextOutcome(text) as unknown as ValueOutcome | ErrorOutcome;
