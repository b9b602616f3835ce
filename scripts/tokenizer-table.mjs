// Writes the o200k_base rank table the CLI loads (src/context/bpe-table.ts) from gpt-tokenizer's own ranks.
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';

const root = new URL('..', import.meta.url).pathname;

/**
 * The table builder, compiled from src/context/bpe-table-build.ts: the runtime's fallback runs the same code,
 * so the file and an in-memory table are the same bytes.
 */
async function importBuilder() {
  const result = await build({
    entryPoints: [join(root, 'src', 'context', 'bpe-table-build.ts')],
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    write: false,
    logLevel: 'warning',
  });
  const code = Buffer.from(result.outputFiles[0].contents).toString('base64');
  return await import(`data:text/javascript;base64,${code}`);
}

/** Writes `<dir>/o200k_base.bin` atomically (temp file, then rename); returns its path. */
export async function writeTokenizerTable(dir) {
  const [{ BPE_TABLE_FILE, buildBpeTable }, { default: ranks }] = await Promise.all([
    importBuilder(),
    import('gpt-tokenizer/bpeRanks/o200k_base'),
  ]);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, BPE_TABLE_FILE);
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, buildBpeTable(ranks));
  renameSync(tmp, file);
  // Earlier builds wrote the ranks as JSON; nothing reads that file any more.
  rmSync(join(dir, 'o200k_base.json'), { force: true });
  return file;
}
