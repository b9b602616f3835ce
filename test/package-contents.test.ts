// What `npm pack` would publish (docs/decisions.md, "Scale: benchmarks and the published package"): the built CLI
// and its token table, no source maps, no build-only entry, no second copy of the tokenizer's ranks.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');
/** The package unpacked, in bytes: 25 MB with source maps and the ranks chunk, ~8.5 MB without. */
const MAX_UNPACKED = 12 * 1024 * 1024;

interface Packed {
  size: number;
  unpackedSize: number;
  files: Array<{ path: string; size: number }>;
}

function dryRunPack(): Packed {
  const r = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
  });
  if (r.status !== 0) throw new Error(`npm pack --dry-run exited ${r.status}: ${r.stderr}`);
  return (JSON.parse(r.stdout) as Packed[])[0]!;
}

describe('the published package', () => {
  const pack = dryRunPack();
  const paths = pack.files.map((f) => f.path);

  it('carries the CLI, its command table and its token table', () => {
    for (const p of ['bin/hub', 'dist/cli.js', 'dist/commands.json', 'dist/tokenizer/o200k_base.bin'])
      expect(paths).toContain(p);
    expect(paths.some((p) => p.startsWith('dist/web/'))).toBe(true);
  });

  it('carries no source maps and not the build-only command describer', () => {
    expect(paths.filter((p) => p.endsWith('.map'))).toEqual([]);
    expect(paths).not.toContain('dist/describe-commands.js');
  });

  it("carries no chunk of gpt-tokenizer's ranks, and the built CLI never imports gpt-tokenizer", () => {
    // The import of the ranks stays (the fallback of a run from source); in the bundle it is a stub that throws.
    const ranks = pack.files.filter((f) => /o200k_base[^/]*\.js$/.test(f.path));
    expect(ranks.filter((f) => f.size > 4096)).toEqual([]);
    const js = paths.filter((p) => p.startsWith('dist/') && !p.startsWith('dist/web/') && p.endsWith('.js'));
    const importing = js.filter((p) => /["']gpt-tokenizer[/"']/.test(readFileSync(join(ROOT, p), 'utf8')));
    expect(importing).toEqual([]);
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    expect(Object.keys(pkg.dependencies)).not.toContain('gpt-tokenizer');
  });

  it(`stays under ${MAX_UNPACKED / 1024 / 1024} MB unpacked`, () => {
    expect(pack.unpackedSize).toBeLessThan(MAX_UNPACKED);
  });

  // HUB_SOURCEMAPS=1 asks the build for maps (a developer's debug build): then there are some, on purpose.
  it.skipIf(process.env.HUB_SOURCEMAPS === '1')('a default build writes no source maps into dist/', () => {
    const maps = readdirSync(join(ROOT, 'dist'), { recursive: true, encoding: 'utf8' }).filter((p) =>
      p.endsWith('.map'),
    );
    expect(maps).toEqual([]);
  });
});
