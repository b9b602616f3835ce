import { createBpeCounter } from './bpe-count.js';
import { loadBpeTable } from './bpe-table.js';

/** The tokenizer every budget is measured with. */
export const TOKENIZER = 'o200k_base';

/** Counts tokens of text; `within` stops early and returns false once `limit` is exceeded. */
export interface TokenCounter {
  readonly encoding: string;
  count(text: string): number;
  within(text: string, limit: number): number | false;
}

let loading: Promise<TokenCounter> | undefined;

/**
 * The real BPE tokenizer (o200k_base), counting exactly as gpt-tokenizer with special-token text such as
 * `<|endoftext|>` counted as plain text, never refused. Its table is one file the build writes (a few ms to
 * load); from source it is built in memory from gpt-tokenizer's ranks. Call it early and await it late to
 * overlap the load with other work.
 */
export function loadTokenCounter(): Promise<TokenCounter> {
  loading ??= loadBpeTable().then((table) => {
    const counter = createBpeCounter(table);
    return { encoding: TOKENIZER, count: counter.count, within: counter.within };
  });
  return loading;
}

/** The text a pack is measured as: exactly what `--json` prints, without the trailing newline. */
export function serialize(value: unknown): string {
  return JSON.stringify(value);
}
