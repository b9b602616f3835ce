/** The tokenizer every budget is measured with; loaded on first use (its import costs ~150-300 ms). */
export const TOKENIZER = 'o200k_base';

/** Counts tokens of text; `within` stops early and returns false once `limit` is exceeded. */
export interface TokenCounter {
  readonly encoding: string;
  count(text: string): number;
  within(text: string, limit: number): number | false;
}

let loading: Promise<TokenCounter> | undefined;

/**
 * The real BPE tokenizer (gpt-tokenizer, o200k_base). Imported lazily so that only the commands that count
 * tokens pay for it; call it early and await it late to overlap the import with other work.
 */
export function loadTokenCounter(): Promise<TokenCounter> {
  // Special-token text (`<|endoftext|>` in a repository file) is counted as plain text, never refused.
  const plain = { disallowedSpecial: new Set<string>() };
  // The encoding's own entry point loads in about half the time of the package's main module.
  loading ??= import('gpt-tokenizer/encoding/o200k_base').then((m) => ({
    encoding: TOKENIZER,
    count: (text: string) => m.countTokens(text, plain),
    within: (text: string, limit: number) => m.isWithinTokenLimit(text, limit, plain),
  }));
  return loading;
}

/** The text a pack is measured as: exactly what `--json` prints, without the trailing newline. */
export function serialize(value: unknown): string {
  return JSON.stringify(value);
}
