// Hostile paths of the "one rule, checked on the real path" item: symlinks planted in a repository (to a file
// outside, to /dev/zero, to a FIFO), component init through a symlinked folder, repositories outside the
// manifest's folder (`/etc`, `../../../etc`, a symlinked repo folder), and a workspace hub.config.yaml that names a
// command. Each case reproduces the attack as the issue describes it; a correct hub refuses (or skips) it.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const SECRET = 'HOSTILE-PATHS-SECRET';

/** A workspace without git: `<root>/.hub.yml` declaring p/r at ./p/r, plus a folder outside with a secret. */
function small(kit, extraRepos = '') {
  const base = kit.tempDir('hub-hostile-paths-');
  const root = join(base, 'ws');
  const repo = join(root, 'p', 'r');
  const outside = join(base, 'outside');
  mkdirSync(repo, { recursive: true });
  mkdirSync(join(outside, 'ssh'), { recursive: true });
  writeFileSync(join(outside, 'secret.txt'), `${SECRET}\n`);
  writeFileSync(join(outside, 'group.conf'), `${SECRET}=1\n`);
  writeFileSync(join(repo, 'notes.md'), 'a note\n');
  const manifest = join(root, '.hub.yml');
  writeFileSync(
    manifest,
    `workspace:\n  name: w\n  projects:\n    - name: p\n      repos:\n        - name: r\n          path: ./p/r\n${extraRepos}`,
  );
  return { base, root, repo, outside, manifest };
}

const objective = (id, notesFile) => ({ id, title: id, notes_file: notesFile });
const rpcCall = (id, name, args) =>
  `${JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } })}\n`;

/** Refused when the reply does not carry the outside secret; accepted (the attack worked) when it does. */
const leaked = (text, judged) =>
  String(text ?? '').includes(SECRET)
    ? { verdict: 'accepted', detail: 'the outside secret was returned' }
    : judged;

export const cases = [
  {
    name: 'notes_file over HTTP: a symlink in a repo to a file outside the workspace',
    expect: 'refused',
    run: async (kit) => {
      const w = small(kit);
      symlinkSync(join(w.outside, 'secret.txt'), join(w.repo, 'leak.txt'));
      const s = await kit.server(w.root);
      try {
        const r = await kit.request(s.base, 'POST', '/v3/ops/objectives', {
          body: objective('leak', 'p/r/leak.txt'),
        });
        return leaked(r.text, kit.judgeHttp(r));
      } finally {
        await s.close();
      }
    },
  },
  {
    name: 'notes_file over MCP: a symlink in a repo to /etc/hostname',
    expect: 'refused',
    run: async (kit) => {
      const w = small(kit);
      symlinkSync('/etc/hostname', join(w.repo, 'host'));
      const m = kit.mcp(w.root);
      try {
        await m.init();
        m.send(rpcCall(1, 'hub_objective_upsert', objective('host', 'p/r/host')));
        const msg = await m.next(15_000);
        const host = readFileSync('/etc/hostname', 'utf8').trim();
        if (host && JSON.stringify(msg ?? {}).includes(host) && msg?.result && !msg.result.isError)
          return { verdict: 'accepted', detail: '/etc/hostname was read into agent_notes' };
        return kit.judgeRpc(msg);
      } finally {
        m.close();
      }
    },
  },
  {
    name: 'notes_file over HTTP: a symlink to /dev/zero (the server must not grow)',
    expect: 'refused',
    run: async (kit) => {
      const w = small(kit);
      symlinkSync('/dev/zero', join(w.repo, 'zero'));
      const s = await kit.server(w.root);
      try {
        const r = await kit.request(s.base, 'POST', '/v3/ops/objectives', {
          body: objective('zero', 'p/r/zero'),
        });
        return kit.judgeHttp(r);
      } finally {
        await s.close();
      }
    },
  },
  {
    name: 'notes_file over HTTP: a FIFO in a repo, then the server still answers',
    expect: 'refused',
    run: async (kit) => {
      const w = small(kit);
      execFileSync('mkfifo', [join(w.repo, 'pipe')]);
      const s = await kit.server(w.root);
      try {
        const r = await kit.request(s.base, 'POST', '/v3/ops/objectives', {
          body: objective('fifo', 'p/r/pipe'),
          timeoutMs: 5000,
        });
        const out = kit.judgeHttp(r);
        const again = await kit.request(s.base, 'GET', '/v3/ops/objectives', { timeoutMs: 5000 });
        if (again.status !== 200)
          return { verdict: 'crash', detail: `server stopped answering (${again.error ?? again.status})` };
        return out;
      } finally {
        await s.close();
      }
    },
  },
  {
    name: 'notes_file on the CLI: a symlink to /dev/zero',
    expect: 'refused',
    run: async (kit) => {
      const w = small(kit);
      symlinkSync('/dev/zero', join(w.repo, 'zero'));
      const args = [
        '-c',
        w.manifest,
        'context',
        'objective',
        'set',
        '--id',
        'z',
        '--title',
        'z',
        '--notes-file',
        join(w.repo, 'zero'),
        '--json',
      ];
      return kit.judgeCli(await kit.hub(args, { timeoutMs: 15_000 }));
    },
  },
  {
    name: 'notes_file on the CLI: a FIFO',
    expect: 'refused',
    run: async (kit) => {
      const w = small(kit);
      execFileSync('mkfifo', [join(w.repo, 'pipe')]);
      const args = [
        '-c',
        w.manifest,
        'context',
        'objective',
        'set',
        '--id',
        'f',
        '--title',
        'f',
        '--notes-file',
        join(w.repo, 'pipe'),
        '--json',
      ];
      return kit.judgeCli(await kit.hub(args, { timeoutMs: 15_000 }));
    },
  },
  {
    name: 'notes_file on the CLI: a symlink the user names is followed (documented: the user typed the path)',
    expect: 'accepted',
    run: async (kit) => {
      const w = small(kit);
      symlinkSync(join(w.outside, 'secret.txt'), join(w.repo, 'mine.txt'));
      const args = [
        '-c',
        w.manifest,
        'context',
        'objective',
        'set',
        '--id',
        'm',
        '--title',
        'm',
        '--notes-file',
        join(w.repo, 'mine.txt'),
        '--json',
      ];
      return kit.judgeCli(await kit.hub(args));
    },
  },
  {
    name: 'component init --apply on the CLI through etclink/ssh (etclink -> a folder outside)',
    expect: 'refused',
    run: async (kit) => {
      const w = small(kit);
      symlinkSync(w.outside, join(w.repo, 'etclink'));
      const before = readFileSync(w.manifest, 'utf8');
      const out = kit.judgeCli(
        await kit.hub(['-c', w.manifest, 'component', 'init', 'etclink/ssh', '--apply', '--json']),
      );
      if (readFileSync(w.manifest, 'utf8') !== before)
        return { verdict: 'accepted', detail: 'the manifest was written' };
      return out;
    },
  },
  {
    name: 'component init --apply over HTTP through etclink/ssh (etclink -> /etc)',
    expect: 'refused',
    run: async (kit) => {
      const w = small(kit);
      symlinkSync('/etc', join(w.repo, 'etclink'));
      const before = readFileSync(w.manifest, 'utf8');
      const s = await kit.server(w.root);
      try {
        const r = await kit.request(s.base, 'POST', '/v3/ops/components/init', {
          body: { path: 'etclink/ssh', apply: true },
        });
        if (readFileSync(w.manifest, 'utf8') !== before)
          return { verdict: 'accepted', detail: 'the manifest was written' };
        return kit.judgeHttp(r);
      } finally {
        await s.close();
      }
    },
  },
  {
    name: 'config validate: a repository at path /etc',
    expect: 'refused',
    run: async (kit) => {
      const w = small(kit, '        - name: etc\n          path: /etc\n');
      const r = await kit.hub(['-c', w.manifest, 'config', 'validate', '--json']);
      if (!r.stdout.includes('repo_outside_workspace'))
        return { verdict: 'accepted', detail: `exit ${r.code}, no repo_outside_workspace` };
      return kit.judgeCli(r);
    },
  },
  {
    name: 'context repomix of a repository at ../../../etc-like path (outside the manifest folder)',
    expect: 'refused',
    run: async (kit) => {
      const w = small(kit, '        - name: up\n          path: ../outside\n');
      const r = await kit.hub([
        '-c',
        w.manifest,
        'context',
        'repomix',
        '--profile',
        'config-edit',
        '--project',
        'p',
        '--repo',
        'up',
        '--json',
      ]);
      return leaked(r.stdout, kit.judgeCli(r));
    },
  },
  {
    name: 'workspace grep over HTTP with a repo folder that is a symlink out',
    expect: 'refused',
    run: async (kit) => {
      const w = small(kit, '        - name: linked\n          path: ./p/linked\n');
      symlinkSync(w.outside, join(w.root, 'p', 'linked'));
      const s = await kit.server(w.root, { env: { HUB_GREP_BACKEND: 'builtin' } });
      try {
        const r = await kit.request(s.base, 'GET', `/v2/workspace/grep?q=${SECRET}`);
        const judged = kit.judgeHttp(r);
        if (judged.verdict !== 'accepted') return judged;
        // The reply echoes the query; only the file's line (`<secret>=1`) means the outside folder was searched.
        if (String(r.text).includes(`${SECRET}=1`))
          return { verdict: 'accepted', detail: 'group.conf of the outside folder was printed' };
        return {
          verdict: 'refused',
          detail: `skipped: repos_refused ${JSON.stringify(r.json?.repos_refused)}`,
        };
      } finally {
        await s.close();
      }
    },
  },
  {
    name: 'repo open over HTTP of a repository declared at /etc',
    expect: 'refused',
    run: async (kit) => {
      const w = small(kit, '        - name: etc\n          path: /etc\n');
      const s = await kit.server(w.root);
      try {
        return kit.judgeHttp(await kit.request(s.base, 'POST', '/v3/ops/open', { body: { path: '/etc' } }));
      } finally {
        await s.close();
      }
    },
  },
  {
    name: 'a workspace hub.config.yaml setting config.editor: repo open is refused, nothing runs',
    expect: 'refused',
    run: async (kit) => {
      const w = small(kit);
      const pwned = join(w.base, 'pwned');
      writeFileSync(join(w.root, 'hub.config.yaml'), `config:\n  editor: touch ${pwned}\n`);
      const out = kit.judgeCli(await kit.hub(['-c', w.manifest, 'repo', 'open', w.repo, '--json']));
      try {
        readFileSync(pwned);
        return { verdict: 'accepted', detail: 'the workspace editor ran' };
      } catch {
        return out;
      }
    },
  },
  {
    name: 'a workspace hub.config.yaml cannot allow outside paths for itself',
    expect: 'refused',
    run: async (kit) => {
      const w = small(kit, '        - name: up\n          path: ../outside\n');
      writeFileSync(join(w.root, 'hub.config.yaml'), `workspace:\n  allowed_outside_paths: [${w.outside}]\n`);
      const r = await kit.hub(['-c', w.manifest, 'workspace', 'grep', SECRET, '--json']);
      if (r.stdout.includes(`${SECRET}=1`))
        return { verdict: 'accepted', detail: 'the outside folder was searched' };
      return kit.judgeCli(r);
    },
  },
  {
    name: "the user's own config allows an outside folder: repomix reads it",
    expect: 'accepted',
    run: async (kit) => {
      const w = small(kit, '        - name: up\n          path: ../outside\n');
      const user = join(w.base, 'user');
      mkdirSync(user);
      writeFileSync(join(user, 'config.yml'), `workspace:\n  allowed_outside_paths: [${w.outside}]\n`);
      const r = await kit.hub(
        [
          '-c',
          w.manifest,
          'context',
          'repomix',
          '--profile',
          'config-edit',
          '--project',
          'p',
          '--repo',
          'up',
          '--json',
        ],
        { env: { HUB_CONFIG_DIR: user } },
      );
      return kit.judgeCli(r);
    },
  },
  {
    name: 'a .hub.yml that is a FIFO',
    expect: 'refused',
    run: async (kit) => {
      const dir = kit.tempDir('hub-hostile-paths-');
      execFileSync('mkfifo', [join(dir, '.hub.yml')]);
      return kit.judgeCli(await kit.hub(['component', 'list', '--json'], { cwd: dir, timeoutMs: 15_000 }));
    },
  },
];
