import { CrosscheckError } from '../../errors/index.ts';
import { decode } from '../../values/codec.ts';
import type { Tagged } from '../../values/codec-core.ts';
import type { ValueOutcome } from '../outcome.ts';

/**
 * A value outcome kept as the JSON text the worker sent, parsed on first read. Retaining
 * 100,000 parsed trees costs the host more than running the calls costs the workers (mostly
 * garbage collection); a string each is cheap to keep.
 * @internal
 */
export class TextValueOutcome implements ValueOutcome {
  readonly kind = 'value' as const;
  #text: string | null;
  #tagged: Tagged = null;
  #decoded = false;
  #value: unknown;

  constructor(text: string) {
    this.#text = text;
  }

  get tagged(): Tagged {
    if (this.#text !== null) {
      try {
        this.#tagged = JSON.parse(this.#text) as Tagged;
      } catch (error) {
        // Only a candidate that forged protocol lines on the worker's reply pipe gets here.
        throw new CrosscheckError(
          'INTERNAL',
          `A worker sent a result that is not JSON (${this.#text.slice(0, 80)}): the candidate or the worker wrote to the protocol pipe (docs/protocol.md).`,
          { cause: error },
        );
      }
      this.#text = null;
    }
    return this.#tagged;
  }

  get value(): unknown {
    if (!this.#decoded) {
      this.#value = decode(this.tagged);
      this.#decoded = true;
    }
    return this.#value;
  }

  toJSON(): unknown {
    return { kind: 'value', tagged: this.tagged };
  }
}
