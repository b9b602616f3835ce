import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generatedFiles } from '../src/ops/generated-files.js';

const FILES = await generatedFiles();

describe('generated files', () => {
  it.each(Object.entries(FILES))(
    '%s is up to date (run `npm run generate` when this fails)',
    (path, text) => {
      expect(readFileSync(join(import.meta.dirname, '..', path), 'utf8')).toBe(text);
    },
  );
});
