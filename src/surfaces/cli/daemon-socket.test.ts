import { chmodSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createTempDir, removeTempDir } from '../../../test/fixtures/index.js';
import { commandWord } from './command-word.js';
import { envDifferences } from './daemon-client.js';
import { daemonSocket, daemonUsable, ensurePrivateDir, isPrivateDir } from './daemon-socket.js';

const dir = createTempDir('hub-daemon-socket-');
afterAll(() => removeTempDir(dir));

describe('daemon socket', () => {
  it('names the socket by build, in $XDG_RUNTIME_DIR/hub or a per-user temp folder', () => {
    expect(daemonSocket({ XDG_RUNTIME_DIR: '/run/user/7' }, 'abc')).toBe('/run/user/7/hub/daemon-abc.sock');
    expect(daemonSocket({}, 'abc')).toMatch(/\/hub-\d+\/daemon-abc\.sock$/);
    expect(daemonSocket({}, 'abc')).not.toBe(daemonSocket({}, 'abd'));
  });

  it('is never used from sources, with HUB_DAEMON=off, or on Windows', () => {
    expect(daemonUsable({}, 'dev')).toBe(false);
    expect(daemonUsable({ HUB_DAEMON: 'off' }, 'abc')).toBe(false);
    expect(daemonUsable({}, 'abc')).toBe(process.platform !== 'win32');
  });

  it('accepts only a folder of this user that nobody else may enter', () => {
    const own = join(dir, 'own');
    expect(ensurePrivateDir(own)).toBe(true);
    chmodSync(own, 0o750);
    expect(isPrivateDir(own)).toBe(false);
    expect(ensurePrivateDir(own)).toBe(false);
    const open = join(dir, 'open');
    mkdirSync(open, { mode: 0o777 });
    chmodSync(open, 0o777);
    expect(isPrivateDir(open)).toBe(false);
    expect(isPrivateDir(join(dir, 'missing'))).toBe(false);
  });

  it('compares only the environment git and the user dirs read', () => {
    const base = {
      PATH: '/bin',
      HOME: '/h',
      GIT_DIR: 'x',
      TERM: 'xterm',
      HUB_JSON: '1',
      XDG_CACHE_HOME: '/c',
    };
    expect(envDifferences(base, { ...base, TERM: 'dumb', HUB_JSON: '0', PWD: '/elsewhere' })).toEqual([]);
    expect(envDifferences(base, { ...base, PATH: '/usr/bin', XDG_CACHE_HOME: undefined })).toEqual([
      'PATH',
      'XDG_CACHE_HOME',
    ]);
    expect(envDifferences(base, { ...base, GIT_AUTHOR_NAME: 'a' })).toEqual(['GIT_AUTHOR_NAME']);
  });

  it('finds the command word after the global options', () => {
    expect(commandWord(['-c', 'daemon', 'component', 'list'])).toBe('component');
    expect(commandWord(['--json', 'daemon', 'status'])).toBe('daemon');
    expect(commandWord(['--config-path', 'x.yml', '--json'])).toBeUndefined();
  });
});
