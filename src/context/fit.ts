import { ValidationError } from '../infra/index.js';
import { serialize, type TokenCounter } from './tokens.js';

/** Anything measured: its serialized form ends with the token count of that very form. */
export interface Measured {
  token_estimate: number;
  /** The budget it was fitted to, when it prints it (a pack does). */
  max_tokens?: number | null;
}

/** How a value whose last key is token_estimate ends before it is stamped. */
const STAMP_TAIL = '"token_estimate":0}';

/**
 * Sets `token_estimate` to the exact token count of the serialized value including that number itself.
 * Digits are pre-split by the tokenizer, so the count moves by at most a token when the number grows a
 * digit group; a few rounds find the fixed point.
 */
export function stampTokens<T extends Measured>(counter: TokenCounter, value: T): number {
  value.token_estimate = 0;
  const text = serialize(value);
  if (text.endsWith(STAMP_TAIL)) {
    // The tokenizer splits before a digit and before the closing brace, so the text up to `"token_estimate":`
    // counts the same alone: one count of it, then the fixed point is arithmetic on the number's own tokens.
    const head = counter.count(text.slice(0, -2)) + 1;
    let n = head + 1;
    for (let round = 0; round < 16; round++) {
      const m = head + counter.count(String(n));
      if (m === n) {
        value.token_estimate = n;
        return n;
      }
      n = m;
    }
  }
  let n = counter.count(text);
  for (let round = 0; round < 16; round++) {
    value.token_estimate = n;
    const m = counter.count(serialize(value));
    if (m === n) return n;
    n = m;
  }
  throw new Error(`token count did not settle for a ${serialize(value).length}-character value`);
}

/** One way to make a value smaller, in `size` steps (step k of size applies it k times). */
export interface Shrink<S> {
  size: number;
  apply(state: S, k: number): void;
}

/** A value and every smaller form of it: step 0 is whole, the last step the smallest. */
export interface Ladder<S, T extends Measured> {
  initial(): S;
  shrinks: Array<Shrink<S>>;
  render(state: S): T;
}

function stateAt<S, T extends Measured>(ladder: Ladder<S, T>, step: number): S {
  const state = ladder.initial();
  let rest = step;
  for (const s of ladder.shrinks) {
    if (rest <= 0) break;
    const k = Math.min(rest, s.size);
    if (k > 0) s.apply(state, k);
    rest -= k;
  }
  return state;
}

export interface Fitted<S, T> {
  value: T;
  state: S;
  tokens: number;
  step: number;
}

/**
 * The smallest budget the value fits when it prints that budget (`max_tokens`): the number's own digits count,
 * so the count is taken again with the candidate in place until it settles.
 */
function smallestBudget<T extends Measured>(counter: TokenCounter, value: T): number {
  let budget = stampTokens(counter, value);
  if (value.max_tokens === undefined) return budget;
  for (let round = 0; round < 8; round++) {
    value.max_tokens = budget;
    const tokens = stampTokens(counter, value);
    if (tokens <= budget) return budget;
    budget = tokens;
  }
  return budget;
}

/**
 * The largest form of the value whose serialization, token_estimate included, is at most `maxTokens`.
 * Binary search over the steps (each step is smaller than the one before), then an exact check of the result;
 * a budget below the smallest form is a ValidationError naming the smallest budget that works (`field` is the
 * input the budget came in).
 */
export function fitToBudget<S, T extends Measured>(
  counter: TokenCounter,
  ladder: Ladder<S, T>,
  maxTokens: number | undefined,
  field = 'max_tokens',
): Fitted<S, T> {
  const at = (step: number) => {
    const state = stateAt(ladder, step);
    return { state, value: ladder.render(state) };
  };
  if (maxTokens === undefined) {
    const { state, value } = at(0);
    return { value, state, tokens: stampTokens(counter, value), step: 0 };
  }
  const last = ladder.shrinks.reduce((n, s) => n + s.size, 0);
  // With token_estimate at the budget itself the count is an upper bound for any fixed point at or below it.
  const fits = (step: number): boolean => {
    const { value } = at(step);
    value.token_estimate = maxTokens;
    return counter.within(serialize(value), maxTokens) !== false;
  };
  let lo = 0;
  let hi = last;
  if (!fits(0)) {
    if (!fits(last)) {
      const { value } = at(last);
      const minimum = smallestBudget(counter, value);
      throw new ValidationError(
        `${field}: ${maxTokens} is below the smallest useful result (${minimum} tokens); give ${minimum} or more`,
        { field, value: maxTokens, rule: 'budget_too_small', minimum },
      );
    }
    lo = 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (fits(mid)) hi = mid;
      else lo = mid + 1;
    }
  } else hi = 0;
  // The search assumes each step is smaller; the exact count decides, walking on if a step surprised it.
  for (let step = hi; step <= last; step++) {
    const { state, value } = at(step);
    const tokens = stampTokens(counter, value);
    if (tokens <= maxTokens) return { value, state, tokens, step };
  }
  throw new Error('no step of the ladder fits the budget');
}
