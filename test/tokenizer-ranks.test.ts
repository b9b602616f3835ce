import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { GptEncoding } from 'gpt-tokenizer/GptEncoding';
import { describe, expect, it } from 'vitest';

// The build writes the ranks as JSON for a fast load; counts from it must equal the package's own encoding.
describe('dist/tokenizer/o200k_base.json', () => {
  const ranks = JSON.parse(
    readFileSync(join(import.meta.dirname, '..', 'dist', 'tokenizer', 'o200k_base.json'), 'utf8'),
  );
  const api = GptEncoding.getEncodingApi('o200k_base', () => ranks);
  const plain = { disallowedSpecial: new Set<string>() };

  it('counts like the package on real JSON, code and text in many scripts', () => {
    const samples = [
      readFileSync(join(import.meta.dirname, '..', 'package.json'), 'utf8'),
      readFileSync(join(import.meta.dirname, '..', 'src', 'context', 'pack.ts'), 'utf8'),
      'Ünïcödé façade — naïve café; 日本語のテキスト; русский текст; עברית; हिन्दी; 🚀✨',
      '<|endoftext|> special text counted as plain text',
    ];
    for (const s of samples) expect(api.countTokens(s, plain)).toBe(countTokens(s, plain));
  });

  it('counts like the package on arbitrary strings', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', maxLength: 200 }),
        (s) => api.countTokens(s, plain) === countTokens(s, plain),
      ),
      { numRuns: 300 },
    );
  });
});
