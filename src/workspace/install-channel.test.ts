import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { detectInstallChannel, findPackageRoot, planUpgrade } from './install-channel.js';

let dir: string;

function pkg(path: string, name = 'hub-workspace'): string {
  mkdirSync(join(path, 'dist'), { recursive: true });
  writeFileSync(join(path, 'package.json'), JSON.stringify({ name, version: '1.0.0' }));
  return path;
}

beforeAll(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'hub-channel-')));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('detectInstallChannel', () => {
  it('recognises the npm global prefix', () => {
    const root = pkg(join(dir, 'prefix/lib/node_modules/hub-workspace'));
    const info = detectInstallChannel({
      packageRoot: root,
      globalPrefix: join(dir, 'prefix'),
      platform: 'linux',
    });
    expect(info).toMatchObject({ channel: 'npm_global', global_prefix: join(dir, 'prefix'), linked: false });
    // The posix layout alone is enough when npm's prefix is elsewhere (nvm, volta).
    const other = detectInstallChannel({
      packageRoot: root,
      globalPrefix: '/somewhere/else',
      platform: 'linux',
    });
    expect(other).toMatchObject({ channel: 'npm_global', global_prefix: join(dir, 'prefix') });
    expect(planUpgrade(info, 'hub-workspace').argv).toEqual(['npm', 'install', '-g', 'hub-workspace@latest']);
  });

  it('recognises the npx cache', () => {
    const root = pkg(join(dir, 'home/.npm/_npx/0a1b2c/node_modules/hub-workspace'));
    const info = detectInstallChannel({ packageRoot: root });
    expect(info.channel).toBe('npx');
    const plan = planUpgrade(info, 'hub-workspace');
    expect(plan.argv).toBeNull();
    expect(plan.refused_reason).toContain('npx');
  });

  it('recognises a development checkout, also through an npm link', () => {
    const checkout = pkg(join(dir, 'src/hub'));
    mkdirSync(join(checkout, '.git'));
    expect(detectInstallChannel({ packageRoot: checkout }).channel).toBe('development');
    mkdirSync(join(dir, 'linkprefix/lib/node_modules'), { recursive: true });
    const link = join(dir, 'linkprefix/lib/node_modules/hub-workspace');
    symlinkSync(checkout, link);
    const info = detectInstallChannel({ packageRoot: link, globalPrefix: join(dir, 'linkprefix') });
    expect(info).toMatchObject({ channel: 'development', linked: true, package_root: checkout });
    expect(planUpgrade(info, 'hub-workspace').refused_reason).toContain('development checkout');
  });

  it('recognises a project dependency, and says unknown otherwise', () => {
    const root = pkg(join(dir, 'app/node_modules/hub-workspace'));
    const info = detectInstallChannel({ packageRoot: root, globalPrefix: join(dir, 'prefix') });
    expect(info).toMatchObject({ channel: 'npm_local', project_root: join(dir, 'app') });
    expect(planUpgrade(info, 'hub-workspace')).toMatchObject({
      argv: ['npm', 'install', 'hub-workspace@latest'],
      cwd: join(dir, 'app'),
    });
    const loose = pkg(join(dir, 'unpacked/hub'));
    expect(detectInstallChannel({ packageRoot: loose }).channel).toBe('unknown');
  });
});

describe('findPackageRoot', () => {
  it('walks up to the package.json that names the package', () => {
    const root = pkg(join(dir, 'walk/pkg'));
    pkg(join(dir, 'walk/pkg/dist/chunks'), 'something-else');
    expect(findPackageRoot(join(root, 'dist/chunks'), 'hub-workspace')).toBe(root);
    expect(findPackageRoot(join(dir, 'walk'), 'hub-workspace')).toBeUndefined();
  });
});
