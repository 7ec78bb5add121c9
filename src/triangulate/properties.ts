import type { Args } from '../inputs/index.ts';
import { defineHyperproperty, type Hyperproperty } from './hyperproperty.ts';
import type { Truth } from './logic.ts';
import { isSpecial, strongest } from './special.ts';

const without = (i: Args, k: number): unknown[] => [...i.slice(0, k), ...i.slice(k + 1)];
const replace = (i: Args, k: number, x: unknown): unknown[] => [...i.slice(0, k), x, ...i.slice(k + 1)];
const insert = (i: Args, k: number, x: unknown): unknown[] => [...i.slice(0, k), x, ...i.slice(k)];

/** Pairs of right inputs: consecutive (the authors' `zip(R[1:], R[:-1])`) or all ordered pairs. */
const rightPairs = (r: readonly Args[], how: 'consecutive' | 'all'): Array<[Args, Args]> => {
  if (how === 'consecutive') return r.slice(1).map((o, j) => [o, r[j] as Args]);
  const out: Array<[Args, Args]> = [];
  for (let a = 0; a < r.length; a++)
    for (let b = 0; b < r.length; b++) if (a !== b) out.push([r[a] as Args, r[b] as Args]);
  return out;
};

/**
 * FWD-INV w.r.t. argument k (paper Prop. 5.2, Def. 5.3): the inverse recovers i_k from p's
 * output, and (bijective) maps different right inputs to different values.
 * @public
 */
export const fwdInvProperty = (k: number, bijective = true): Hyperproperty =>
  defineHyperproperty({
    name: `FWD-INV(${k})`,
    bijective,
    formula: bijective
      ? '∀i ∈ L. q(p(i), ī) = i_k ∧ ∀o, o′ ∈ R. o ≠ o′ ⇒ q(o) ≠ q(o′)'
      : '∀i ∈ L. q(p(i), ī) = i_k',
    check: async (h) => {
      const recovers = h.forAll<Args>(
        h.left,
        async (i) => h.equals(i[k], await h.q(h.tolerate(await h.p(...i)), ...without(i, k))),
        { clause: 'q(p(i), ī) = i_k' },
      );
      if (!bijective) return recovers;
      // The authors vary position k of the inverse's argument list (the output only when k = 0).
      const pos = h.semantics.injectivity === 'output' ? 0 : k;
      const injective = h.forAll<[Args, Args]>(
        rightPairs(h.right, h.semantics.injectivityPairs),
        async ([o, o2]) => {
          const up = replace(o, pos, o2[pos]);
          const [a, b] = await Promise.all([h.q(...o), h.q(...up)]);
          return h.implies(h.not(h.equals(o, up)), h.not(h.tolerate(h.equals(a, b)) as Truth));
        },
        { clause: 'o ≠ o′ ⇒ q(o) ≠ q(o′)' },
      );
      const [x, y] = await Promise.all([recovers, injective]);
      return h.and(x, y);
    },
  });

/**
 * FWD-SINV w.r.t. argument k (Def. 5.5/5.7): i_k lies in the set-valued inverse of p(i) (L1), and
 * (bijective) every member of that set makes p produce the same output (L2). Under
 * `sinvDisjointness` the paper's L3 (different outputs have disjoint fibers) is checked too.
 * @public
 */
export const fwdSinvProperty = (k: number, bijective = true): Hyperproperty =>
  defineHyperproperty({
    name: `FWD-SINV(${k})`,
    bijective,
    formula: bijective
      ? '∀i ∈ L. i_k ∈ q(p(i), ī) ∧ ∀i′ ∈ q(p(i), ī). p(i′, ī) = p(i)'
      : '∀i ∈ L. i_k ∈ q(p(i), ī)',
    check: async (h) => {
      const fibers = h.forAll<Args>(
        h.left,
        async (i) => {
          const out = await h.p(...i);
          const fiber = h.answers(await h.q(h.tolerate(out), ...without(i, k)));
          const l1 = h.member(i[k], fiber);
          if (!bijective) return l1;
          const l2 = await h.forAll(fiber, async (x) => h.equals(out, await h.p(...replace(i, k, x))));
          return h.and(l1, l2);
        },
        { clause: bijective ? 'i_k ∈ q(p(i), ī) ∧ ∀i′ ∈ q(p(i), ī). p(i′) = p(i)' : 'i_k ∈ q(p(i), ī)' },
      );
      if (!bijective || !h.semantics.sinvDisjointness) return fibers;
      const pairs: Array<[Args, Args]> = [];
      for (let a = 0; a < h.left.length; a++)
        for (let b = a + 1; b < h.left.length; b++) pairs.push([h.left[a] as Args, h.left[b] as Args]);
      const disjoint = h.forAll<[Args, Args]>(
        pairs,
        async ([i, j]) => {
          const rest = without(i, k);
          if (h.equals(rest, without(j, k)) !== true) return true;
          const [oi, oj] = await Promise.all([h.p(...i), h.p(...j)]);
          if (isSpecial(oi) || isSpecial(oj) || h.equals(oi, oj) === true) return true;
          const [fi, fj] = await Promise.all([h.q(oi, ...rest), h.q(oj, ...rest)]).then((v) =>
            v.map((x) => h.answers(x)),
          );
          const s = strongest(fi, fj);
          if (s) return h.tolerate(s) as Truth;
          const vi = (fi as { values: readonly unknown[] }).values;
          return !vi.some((x) => h.member(x, fj) === true);
        },
        { clause: 'o ≠ o′ ⇒ q(o, ī) ∩ q(o′, ī) = ∅' },
      );
      const [x, y] = await Promise.all([fibers, disjoint]);
      return h.and(x, y);
    },
  });

/**
 * ENUM-SINV stage 1 (Def. 5.9): every enumerated answer's inverse contains i_k, and (bijective)
 * every value the inverse lists makes the enumerator list o. Here p is the enumerator.
 * @public
 */
export const enumSinvProperty = (k: number, bijective = true): Hyperproperty =>
  defineHyperproperty({
    name: `ENUM-SINV(${k})`,
    bijective,
    stage: 'enum',
    formula: bijective
      ? '∀i ∈ L. ∀o ∈ e(i). i_k ∈ q(o, ī) ∧ ∀(o, ī) ∈ R. ∀x ∈ q(o, ī). o ∈ e(x, ī)'
      : '∀i ∈ L. ∀o ∈ e(i). i_k ∈ q(o, ī)',
    check: async (h) => {
      const sound = h.forAll<Args>(
        h.left,
        async (i) =>
          h.forAll(h.answers(h.tolerate(await h.p(...i))), async (o) =>
            h.member(i[k], h.answers(await h.q(o, ...without(i, k)))),
          ),
        { clause: '∀o ∈ e(i). i_k ∈ q(o, ī)' },
      );
      if (!bijective) return sound;
      const complete = h.forAll<Args>(
        h.right,
        async (r) => {
          const [o, ...rest] = r;
          return h.forAll(h.answers(h.tolerate(await h.q(...r))), async (x) =>
            h.member(o, h.answers(await h.p(...insert(rest, k, x)))),
          );
        },
        { clause: '∀x ∈ q(o, ī). o ∈ e(x, ī)' },
      );
      const [x, y] = await Promise.all([sound, complete]);
      return h.and(x, y);
    },
  });

/** FWD-ENUM (stage 2 of the cascade; not bijective): p(i) is among the enumerated answers. Here q is the enumerator. @public */
export const fwdEnumProperty = (): Hyperproperty =>
  defineHyperproperty({
    name: 'FWD-ENUM',
    bijective: false,
    formula: '∀i ∈ L. p(i) ∈ e(i)',
    check: (h) =>
      h.forAll<Args>(
        h.left,
        async (i) => {
          const [out, all] = await Promise.all([h.p(...i), h.q(...i)]);
          return h.member(out, h.answers(all));
        },
        { clause: 'p(i) ∈ e(i)' },
      ),
  });

/** STREAM's map law: the list program equals the triangulated pointwise view on every element (q is the view). @public */
export const statelessMapProperty = (): Hyperproperty =>
  defineHyperproperty({
    name: 'STATELESS-MAP',
    bijective: true,
    formula: '∀[x₁…xₙ] ∈ L. p([x₁…xₙ]) = [p°(x₁)…p°(xₙ)]',
    check: (h) =>
      h.forAll<Args>(
        h.left,
        async (i) => {
          const xs = i[0];
          if (!Array.isArray(xs)) return false;
          const [out, mapped] = await Promise.all([h.p(...i), Promise.all(xs.map((x) => h.q(x)))]);
          return h.equals(h.tolerate(out), mapped);
        },
        { clause: 'p([x…]) = [p°(x)…]' },
      ),
  });

/** Plurality as a triangulation: (id, ≡) (Prop. 4.4). @public */
export const equivalenceProperty = (): Hyperproperty =>
  defineHyperproperty({
    name: 'EQUIVALENCE',
    bijective: true,
    formula: '∀i ∈ L. p(i) = q(i)',
    check: (h) =>
      h.forAll<Args>(
        h.left,
        async (i) => {
          const [a, b] = await Promise.all([h.p(...i), h.q(...i)]);
          return h.equals(a, b);
        },
        { clause: 'p(i) = q(i)' },
      ),
  });

const offByOne = (v: unknown): unknown =>
  typeof v === 'number' ? v + 1 : Array.isArray(v) ? v.map(offByOne) : v;

/** OffByOne baseline: q answers the task plus one. @public */
export const offByOneProperty = (): Hyperproperty =>
  defineHyperproperty({
    name: 'OFF-BY-ONE',
    bijective: false,
    formula: '∀i ∈ L. p(i) + 1 = q(i)',
    check: (h) =>
      h.forAll<Args>(
        h.left,
        async (i) => {
          const [a, b] = await Promise.all([h.p(...i), h.q(...i)]);
          return h.equals(isSpecial(a) ? a : offByOne(a), b);
        },
        { clause: 'p(i) + 1 = q(i)' },
      ),
  });

/** Postcondition baseline: q(i, p(i)) is not a literal false (not bijective, Prop. 4.5). @public */
export const postconditionProperty = (): Hyperproperty =>
  defineHyperproperty({
    name: 'POSTCONDITION',
    bijective: false,
    formula: '∀i ∈ L. post(i, p(i))',
    check: (h) =>
      h.forAll<Args>(
        h.left,
        async (i) => {
          const r = await h.q(...i, await h.p(...i));
          if (isSpecial(r)) return h.tolerate(r) as Truth;
          return r !== false;
        },
        { clause: 'post(i, p(i))' },
      ),
  });
