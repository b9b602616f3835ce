// Hostile input for installs (issue 14): MCP configuration files that are a symlink to the user's ~/.ssh/config,
// a FIFO, 50 MB or not JSON; a vendor folder linked outside the repository; skill and template names that climb
// (`../x`); user-scope installs and answers files outside the workspace over HTTP and MCP. A correct hub refuses
// each one cleanly, never blocks on the FIFO, and leaves every file (and the link's target) byte for byte as it was.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const SSH_CONFIG = 'Host *\n  IdentityFile ~/.ssh/id_ed25519\n';

/** A workspace that is a git repository, and a home of its own with a ~/.ssh/config (never the real home). */
function setup(kit) {
  const dir = kit.tempDir('hub-hostile-installs-');
  const home = join(dir, 'home');
  const ws = join(dir, 'ws');
  mkdirSync(join(home, '.ssh'), { recursive: true });
  writeFileSync(join(home, '.ssh', 'config'), SSH_CONFIG);
  mkdirSync(ws);
  execFileSync('git', ['init', '-q', ws]);
  writeFileSync(join(ws, '.hub.yml'), 'workspace:\n  name: hostile\n  projects: []\n');
  const env = { HOME: home, XDG_CONFIG_HOME: join(dir, 'xdg') };
  return { dir, home, ws, env };
}

/** The judged verdict, unless a file the attack aimed at changed: then the attack got through. */
function untouched(judged, files) {
  for (const [path, before] of files) {
    let now;
    try {
      now = readFileSync(path, 'utf8');
    } catch {
      now = undefined;
    }
    if (now !== before) return { verdict: 'accepted', detail: `${path} changed` };
  }
  return judged;
}

const cli = (name, run) => ({ name: `CLI ${name}`, expect: 'refused', run });

const rpc = (id, name, args) =>
  `${JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } })}\n`;

export const cases = [
  cli('mcp install: ~/.claude.json is a symlink to ~/.ssh/config', async (kit) => {
    const s = setup(kit);
    symlinkSync(join(s.home, '.ssh', 'config'), join(s.home, '.claude.json'));
    const r = await kit.hub(['mcp', 'install', '--scope', 'user', '--target', 'claude_code', '--force'], {
      cwd: s.ws,
      env: s.env,
    });
    return untouched(kit.judgeCli(r), [[join(s.home, '.ssh', 'config'), SSH_CONFIG]]);
  }),
  cli('mcp install: .cursor/mcp.json is a FIFO', async (kit) => {
    const s = setup(kit);
    mkdirSync(join(s.ws, '.cursor'));
    execFileSync('mkfifo', [join(s.ws, '.cursor', 'mcp.json')]);
    const r = await kit.hub(['mcp', 'install', '--scope', 'project', '--target', 'cursor'], {
      cwd: s.ws,
      env: s.env,
      timeoutMs: 15_000,
    });
    const judged = kit.judgeCli(r);
    return statSync(join(s.ws, '.cursor', 'mcp.json')).isFIFO()
      ? judged
      : { verdict: 'accepted', detail: 'the FIFO was replaced' };
  }),
  cli('mcp install: ~/.codeium/windsurf/mcp_config.json is 50 MB', async (kit) => {
    const s = setup(kit);
    const file = join(s.home, '.codeium', 'windsurf', 'mcp_config.json');
    mkdirSync(join(file, '..'), { recursive: true });
    const big = `{"mcpServers": {}, "pad": "${'x'.repeat(50 * 1024 * 1024)}"}`;
    writeFileSync(file, big);
    const r = await kit.hub(['mcp', 'install', '--scope', 'user', '--target', 'windsurf'], {
      cwd: s.ws,
      env: s.env,
    });
    const judged = kit.judgeCli(r);
    return statSync(file).size === big.length
      ? judged
      : { verdict: 'accepted', detail: 'the file was rewritten' };
  }),
  cli('mcp install: .mcp.json is not JSON (also with --force)', async (kit) => {
    const s = setup(kit);
    const broken = '{"mcpServers": {"mine": {"command": "x"}},, oops';
    writeFileSync(join(s.ws, '.mcp.json'), broken);
    const r = await kit.hub(['mcp', 'install', '--scope', 'project', '--target', 'claude_code', '--force'], {
      cwd: s.ws,
      env: s.env,
    });
    return untouched(kit.judgeCli(r), [[join(s.ws, '.mcp.json'), broken]]);
  }),
  cli('mcp install: .codex is a symlink to a folder outside the repository', async (kit) => {
    const s = setup(kit);
    const outside = join(s.dir, 'outside');
    mkdirSync(outside);
    symlinkSync(outside, join(s.ws, '.codex'));
    const r = await kit.hub(['mcp', 'install', '--scope', 'project', '--target', 'codex', '--force'], {
      cwd: s.ws,
      env: s.env,
    });
    const judged = kit.judgeCli(r);
    return readdirSync(outside).length === 0
      ? judged
      : { verdict: 'accepted', detail: 'wrote outside the repository' };
  }),
  cli('skills install --skill ../x', async (kit) => {
    const s = setup(kit);
    const r = await kit.hub(
      ['skills', 'install', '--scope', 'project', '--target', 'codex', '--skill', '../x'],
      {
        cwd: s.ws,
        env: s.env,
      },
    );
    const judged = kit.judgeCli(r);
    return readdirSync(s.ws).includes('.agents') ? { verdict: 'accepted', detail: 'wrote .agents' } : judged;
  }),
  cli('agent create ../x', async (kit) => {
    const s = setup(kit);
    const r = await kit.hub(['agent', 'create', '../x', '--vendor', 'claude_code', '--scope', 'project'], {
      cwd: s.ws,
      env: s.env,
    });
    return kit.judgeCli(r);
  }),
  {
    name: 'HTTP skills install: skill ../x',
    expect: 'refused',
    async run(kit) {
      const s = setup(kit);
      const srv = await kit.server(s.ws, { env: s.env });
      try {
        const res = await kit.request(srv.base, 'POST', '/v3/agents/skills/install', {
          body: { scope: 'project', target: 'cursor', skill: ['../x'] },
        });
        return kit.judgeHttp(res);
      } finally {
        await srv.close();
      }
    },
  },
  {
    name: 'HTTP mcp install: user scope (the server’s home)',
    expect: 'refused',
    async run(kit) {
      const s = setup(kit);
      const srv = await kit.server(s.ws, { env: s.env });
      try {
        const res = await kit.request(srv.base, 'POST', '/v3/agents/mcp/install', {
          body: { scope: 'user', target: 'claude_code' },
        });
        const judged = kit.judgeHttp(res);
        return readdirSync(s.home).includes('.claude.json')
          ? { verdict: 'accepted', detail: 'wrote ~/.claude.json' }
          : judged;
      } finally {
        await srv.close();
      }
    },
  },
  {
    name: 'HTTP agent create: answers file outside the workspace',
    expect: 'refused',
    async run(kit) {
      const s = setup(kit);
      const srv = await kit.server(s.ws, { env: s.env });
      try {
        const res = await kit.request(srv.base, 'POST', '/v3/agents/templates/repo-implementer/create', {
          body: {
            vendor: 'cursor',
            scope: 'project',
            answers_file: join(s.home, '.ssh', 'config'),
            dry_run: true,
          },
        });
        return kit.judgeHttp(res);
      } finally {
        await srv.close();
      }
    },
  },
  {
    name: 'MCP hub_skills_install: skill ../x and user scope',
    expect: 'refused',
    async run(kit) {
      const s = setup(kit);
      const m = await kit.mcp(s.ws, { env: s.env });
      try {
        await m.init();
        m.send(rpc(2, 'hub_skills_install', { scope: 'project', target: 'codex', skill: ['../x'] }));
        const first = kit.judgeRpc(await m.next());
        m.send(rpc(3, 'hub_mcp_install', { scope: 'user', target: 'hermes' }));
        const second = kit.judgeRpc(await m.next());
        if (first.verdict !== 'refused') return first;
        return readdirSync(s.home).includes('.hermes')
          ? { verdict: 'accepted', detail: 'wrote ~/.hermes' }
          : second;
      } finally {
        await m.close();
      }
    },
  },
  {
    name: 'mcp install: a committed .mcp.json / .cursor/mcp.json / .vscode/mcp.json / opencode.json / .codex/config.toml nested 100,000 deep (CLI, HTTP, MCP; issue 25)',
    expect: 'refused',
    async run(kit) {
      const s = setup(kit);
      const n = 100_000;
      const json = `{"mcpServers": {}, "a": ${'['.repeat(n)}${']'.repeat(n)}}`;
      const files = [
        ['.mcp.json', 'claude_code', json],
        ['.cursor/mcp.json', 'cursor', json],
        ['.vscode/mcp.json', 'github_copilot', json],
        ['opencode.json', 'opencode', json],
        ['.codex/config.toml', 'codex', `a = ${'['.repeat(n)}${']'.repeat(n)}\nb${'.c'.repeat(n)} = 1\n`],
      ];
      for (const [file, , text] of files) {
        mkdirSync(join(s.ws, file, '..'), { recursive: true });
        writeFileSync(join(s.ws, file), text);
      }
      const verdicts = [];
      for (const [, target] of files)
        verdicts.push(
          kit.judgeCli(
            await kit.hub(['mcp', 'install', '--scope', 'project', '--target', target, '--force'], {
              cwd: s.ws,
              env: s.env,
            }),
          ),
        );
      const srv = await kit.server(s.ws, { env: s.env });
      try {
        const res = await kit.request(srv.base, 'POST', '/v3/agents/mcp/install', {
          body: { scope: 'project', target: 'cursor', force: true },
        });
        verdicts.push(kit.judgeHttp(res));
      } finally {
        await srv.close();
      }
      const m = await kit.mcp(s.ws, { env: s.env });
      try {
        await m.init();
        m.send(rpc(2, 'hub_mcp_install', { scope: 'project', target: 'codex', force: true }));
        verdicts.push(kit.judgeRpc(await m.next(30_000)));
      } finally {
        await m.close();
      }
      const worst = verdicts.find((v) => v.verdict !== 'refused');
      return untouched(
        worst ?? { verdict: 'refused', detail: verdicts.map((v) => v.detail.slice(0, 60)).join(' | ') },
        files.map(([file, , text]) => [join(s.ws, file), text]),
      );
    },
  },
];
