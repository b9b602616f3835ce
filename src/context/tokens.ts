import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
/** The tokenizer every budget is measured with; loaded on first use (its import costs ~150-300 ms). */
export const TOKENIZER = 'o200k_base';

/** Counts tokens of text; `within` stops early and returns false once `limit` is exceeded. */
export interface TokenCounter {
  readonly encoding: string;
  count(text: string): number;
  within(text: string, limit: number): number | false;
}

let loading: Promise<TokenCounter> | undefined;

/** Where the build writes the encoding's ranks as JSON (dist/tokenizer/), seen from the bundle or a chunk. */
function builtRanksFile(): string | undefined {
  for (const rel of ['./tokenizer/', '../tokenizer/']) {
    const file = fileURLToPath(new URL(`${rel}${TOKENIZER}.json`, import.meta.url));
    if (existsSync(file)) return file;
  }
  return undefined;
}

/** The encoding API: from the build's JSON ranks when present, else from gpt-tokenizer's own module. */
async function encodingApi(): Promise<
  Pick<typeof import('gpt-tokenizer/encoding/o200k_base'), 'countTokens' | 'isWithinTokenLimit'>
> {
  const file = builtRanksFile();
  if (file) {
    // The package ships its ranks as a 2.4 MB array literal that costs ~250 ms to compile; the same array read as
    // JSON costs a tenth of that. The build writes it from the package's own array, so the ranks are identical.
    const { GptEncoding } = await import('gpt-tokenizer/GptEncoding');
    const ranks = JSON.parse(readFileSync(file, 'utf8')) as Array<string | number[]>;
    return GptEncoding.getEncodingApi(TOKENIZER, () => ranks);
  }
  return await import('gpt-tokenizer/encoding/o200k_base');
}

/**
 * The real BPE tokenizer (gpt-tokenizer, o200k_base). Loaded lazily so that only the commands that count
 * tokens pay for it; call it early and await it late to overlap the load with other work.
 */
export function loadTokenCounter(): Promise<TokenCounter> {
  // Special-token text (`<|endoftext|>` in a repository file) is counted as plain text, never refused.
  const plain = { disallowedSpecial: new Set<string>() };
  loading ??= encodingApi().then((m) => ({
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
