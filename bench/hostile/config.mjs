// Hostile input for Config Studio, derived sets and catalog edits (issue 15): operations files that point out of
// the workspace (named over HTTP, symlinked), block (a FIFO) or are huge; drafts that reach for __proto__, nest
// deep, inject YAML through a value or point a repo outside the workspace; a preview asked to show a token;
// selections and paths that climb out. A correct hub reads nothing outside over HTTP, never hangs, never writes a
// draft that breaks a rule, and never shows a secret.
import { execFileSync } from 'node:child_process';
import { readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const SECRET = 'hub-hostile-config-secret-9d2e';

/** Refused, and the manifest byte-identical afterwards. */
async function refusedUnchanged(root, run) {
  const manifest = join(root, '.hub.yml');
  const before = readFileSync(manifest, 'utf8');
  const judged = await run();
  if (readFileSync(manifest, 'utf8') !== before)
    return { verdict: 'crash', detail: 'the manifest was written', judged };
  return judged;
}

const cli = (kit, root, args) => kit.hub(['-c', join(root, '.hub.yml'), ...args, '--json']);

async function http(kit, root, method, path, body) {
  const s = await kit.server(root);
  try {
    return await kit.request(s.base, method, path, { body });
  } finally {
    await s.close();
  }
}

function judgeSecretFree(kit, res) {
  const judged = kit.judgeHttp(res);
  if (res.text?.includes(SECRET)) return { verdict: 'crash', detail: 'the answer shows the secret' };
  return judged;
}

export const cases = [
  {
    name: 'HTTP preview naming an operations file outside the workspace (not read)',
    expect: 'refused',
    async run(kit) {
      const { root } = kit.demo();
      const outside = join(kit.tempDir(), 'ops.json');
      writeFileSync(outside, JSON.stringify([{ op: 'set', path: '/workspace/description', value: SECRET }]));
      return judgeSecretFree(kit, await http(kit, root, 'POST', '/v3/config/hub/preview', { file: outside }));
    },
  },
  {
    name: 'HTTP preview of an operations file symlinked inside the workspace to a file outside (not read)',
    expect: 'refused',
    async run(kit) {
      const { root } = kit.demo();
      const outside = join(kit.tempDir(), 'ops.json');
      writeFileSync(outside, JSON.stringify([{ op: 'set', path: '/workspace/description', value: SECRET }]));
      symlinkSync(outside, join(root, 'ops.json'));
      return judgeSecretFree(
        kit,
        await http(kit, root, 'POST', '/v3/config/hub/preview', { file: 'ops.json' }),
      );
    },
  },
  {
    name: 'config preview --file of a FIFO (no hang)',
    expect: 'refused',
    async run(kit) {
      const { root } = kit.demo();
      const fifo = join(root, 'ops.fifo');
      execFileSync('mkfifo', [fifo]);
      return kit.judgeCli(await cli(kit, root, ['config', 'preview', '--file', fifo]));
    },
  },
  {
    name: 'config patch --file of 50 MB (max_size), nothing written',
    expect: 'refused',
    async run(kit) {
      const { root } = kit.demo();
      const big = join(root, 'big.json');
      writeFileSync(
        big,
        `[{"op":"set","path":"/workspace/description","value":"${'a'.repeat(50 * 1024 * 1024)}"}]`,
      );
      return refusedUnchanged(root, async () =>
        kit.judgeCli(await cli(kit, root, ['config', 'patch', '--file', big, '--save'])),
      );
    },
  },
  {
    name: 'HTTP preview with 1,001 operations (at most 1,000)',
    expect: 'refused',
    async run(kit) {
      const { root } = kit.demo();
      const operations = Array.from({ length: 1001 }, () => ({
        op: 'unset',
        path: '/workspace/description',
      }));
      return kit.judgeHttp(await http(kit, root, 'POST', '/v3/config/hub/preview', { operations }));
    },
  },
  {
    name: 'HTTP preview with a value nested 10,000 deep (input bounds)',
    expect: 'refused',
    async run(kit) {
      const { root } = kit.demo();
      const raw = `{"operations":[{"op":"set","path":"/workspace/description","value":${'['.repeat(10_000)}${']'.repeat(10_000)}}]}`;
      const s = await kit.server(root);
      try {
        return kit.judgeHttp(
          await kit.request(s.base, 'POST', '/v3/config/hub/preview', {
            raw,
            headers: { 'content-type': 'application/json' },
          }),
        );
      } finally {
        await s.close();
      }
    },
  },
  {
    name: 'config patch --save setting /__proto__/polluted (a schema error: nothing written)',
    expect: 'refused',
    async run(kit) {
      const { root } = kit.demo();
      const ops = join(root, 'proto.json');
      writeFileSync(
        ops,
        '[{"op":"set","path":"/__proto__/polluted","value":true},{"op":"set","path":"/constructor/prototype/x","value":1}]',
      );
      return refusedUnchanged(root, async () =>
        kit.judgeCli(await cli(kit, root, ['config', 'patch', '--file', ops, '--save'])),
      );
    },
  },
  {
    name: 'config patch --save pointing a repo path outside the workspace (nothing written)',
    expect: 'refused',
    async run(kit) {
      const { root } = kit.demo();
      const ops = join(root, 'out.json');
      writeFileSync(
        ops,
        JSON.stringify([
          { op: 'set', path: '/workspace/projects/platform/repos/identity/path', value: '../../..' },
        ]),
      );
      return refusedUnchanged(root, async () =>
        kit.judgeCli(await cli(kit, root, ['config', 'patch', '--file', ops, '--save'])),
      );
    },
  },
  {
    name: 'a value that tries to inject YAML keys (stays one quoted string)',
    expect: 'accepted',
    async run(kit) {
      const { root } = kit.demo();
      const ops = join(root, 'inject.json');
      const value = 'x\nworkspace:\n  projects: []\n# end';
      writeFileSync(
        ops,
        JSON.stringify([{ op: 'set', path: '/workspace/projects/platform/description', value }]),
      );
      const r = await cli(kit, root, ['config', 'patch', '--file', ops, '--save']);
      const judged = kit.judgeCli(r);
      if (judged.verdict !== 'accepted') return judged;
      const after = await cli(kit, root, ['config', 'show', '--normalized']);
      const m = JSON.parse(after.stdout).manifest;
      const platform = m.workspace.projects.find((p) => p.name === 'platform');
      if (platform?.description !== value || m.workspace.projects.length < 2)
        return { verdict: 'crash', detail: 'the value changed the structure of the manifest' };
      return judged;
    },
  },
  {
    name: 'appconfig preview over HTTP of a config holding tokens (redacted in every style)',
    expect: 'accepted',
    async run(kit) {
      const { root } = kit.demo();
      writeFileSync(join(root, 'hub.config.yaml'), `state:\n  token: tok-${SECRET}-1234\n`);
      // The server token comes from the user's own config (a workspace config may not set it).
      const user = kit.tempDir('hub-hostile-user-');
      writeFileSync(join(user, 'config.yml'), `server:\n  token: srv-${SECRET}-5678\n`);
      const s = await kit.server(root, { env: { HUB_SERVER_TOKEN: '', HUB_CONFIG_DIR: user } });
      try {
        let last;
        for (const style of ['normalized', 'minimal', 'on-disk']) {
          const res = await kit.request(s.base, 'POST', '/v3/config/appconfig/preview', {
            body: { style, operations: [{ op: 'set', path: 'state.api_key', value: `key-${SECRET}-9999` }] },
            headers: { authorization: `Bearer srv-${SECRET}-5678` },
          });
          last = judgeSecretFree(kit, res);
          if (last.verdict !== 'accepted') return last;
        }
        return last;
      } finally {
        await s.close();
      }
    },
  },
  {
    name: 'project derived create --from climbing out (../../etc)',
    expect: 'refused',
    async run(kit) {
      const { root } = kit.demo();
      return refusedUnchanged(root, async () =>
        kit.judgeCli(
          await cli(kit, root, ['project', 'derived', 'create', '-n', 'x', '--from', '../../etc/passwd']),
        ),
      );
    },
  },
  {
    name: 'catalog add --path outside the workspace (nothing written)',
    expect: 'refused',
    async run(kit) {
      const { root } = kit.demo();
      const outside = kit.tempDir();
      return refusedUnchanged(root, async () =>
        kit.judgeCli(
          await cli(kit, root, [
            'catalog',
            'add',
            '--project',
            'platform',
            '--repo',
            'far',
            '--path',
            outside,
          ]),
        ),
      );
    },
  },
  {
    name: 'config tree --path with a NUL and a 2,000-character pointer',
    expect: 'refused',
    async run(kit) {
      const { root } = kit.demo();
      const nul = kit.judgeHttp(await http(kit, root, 'GET', '/v3/config/hub/tree?path=%2Fworkspace%00x'));
      if (nul.verdict !== 'refused') return nul;
      return kit.judgeCli(await cli(kit, root, ['config', 'tree', '--path', `/${'a'.repeat(2000)}`]));
    },
  },
];
