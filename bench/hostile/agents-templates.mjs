// Agent templates under hostile input: overlay template.yaml files that are YAML bombs, 10 MB or nested past any
// sane depth; .tpl files and overlay folders symlinked out of the workspace; template ids that try to escape
// (`../x`, encoded slashes); unknown variables, partial cycles and an expansion bomb of partials; answers files
// that are FIFOs, devices or bombs; an export through a symlink. CLI, `hub web serve` and a raw `hub mcp serve`.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** A minimal workspace (a valid .hub.yml, no repositories) with a private HOME; `{root, env}`. */
function workspace(kit) {
  const root = kit.tempDir('hub-hostile-tpl-');
  writeFileSync(join(root, '.hub.yml'), 'workspace:\n  name: hostile\n  projects: []\n');
  const home = kit.tempDir('hub-hostile-home-');
  return {
    root,
    env: { HOME: home, XDG_CONFIG_HOME: join(home, '.config'), HUB_CONFIG_DIR: join(home, 'hub') },
  };
}

function put(root, rel, text) {
  mkdirSync(dirname(join(root, rel)), { recursive: true });
  writeFileSync(join(root, rel), text);
}

const BOMB = [
  'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
  'b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]',
  'c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]',
  'd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]',
  'e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]',
  'f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]',
  'g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]',
  'recommended_skills: *g',
  '',
].join('\n');

/** Runs `args` on the CLI of a fresh workspace after `setup(root)`. */
const cli = (args, setup, expect = 'refused') => ({
  expect,
  async run(kit) {
    const ws = workspace(kit);
    await setup?.(ws.root, kit);
    const r = await kit.hub([...args(ws.root), '--json'], { cwd: ws.root, env: ws.env });
    return kit.judgeCli(r);
  },
});

/** One HTTP request against a fresh workspace's server after `setup(root)`. */
const http = (method, path, body, setup, expect = 'refused') => ({
  expect,
  async run(kit) {
    const ws = workspace(kit);
    await setup?.(ws.root, kit);
    const srv = await kit.server(ws.root, { env: ws.env });
    try {
      return kit.judgeHttp(await kit.request(srv.base, method, path, body === undefined ? {} : { body }));
    } finally {
      await srv.close();
    }
  },
});

/** One MCP tool call against a fresh workspace after `setup(root)`. */
const mcp = (tool, args, setup, expect = 'refused') => ({
  expect,
  async run(kit) {
    const ws = workspace(kit);
    await setup?.(ws.root, kit);
    const m = kit.mcp(ws.root, { env: ws.env });
    try {
      await m.init();
      m.send(
        `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: tool, arguments: args } })}\n`,
      );
      return kit.judgeRpc(await m.next(30_000));
    } finally {
      m.close();
    }
  },
});

const bomb = (root) => put(root, '.hub-agents/repo-implementer/template.yaml', BOMB);
const huge = (root) =>
  put(root, '.hub-agents/repo-implementer/template.yaml', `description: ${'x'.repeat(10 * 1024 * 1024)}\n`);
const deep = (root) =>
  put(root, '.hub-agents/repo-implementer/template.yaml', `ui: ${'['.repeat(5000)}${']'.repeat(5000)}\n`);
const outsideTpl = (root, kit) => {
  const out = kit.tempDir('hub-hostile-out-');
  writeFileSync(join(out, 'secret.md.tpl'), 'secret {{agent_id}}\n');
  mkdirSync(join(root, '.hub-agents', 'repo-implementer'), { recursive: true });
  symlinkSync(join(out, 'secret.md.tpl'), join(root, '.hub-agents', 'repo-implementer', 'body.md.tpl'));
};
const passwdTpl = (root) => {
  mkdirSync(join(root, '.hub-agents', 'repo-implementer'), { recursive: true });
  symlinkSync('/etc/passwd', join(root, '.hub-agents', 'repo-implementer', 'body.md.tpl'));
};
const unknownVar = (root) =>
  put(root, '.hub-agents/repo-implementer/body.md.tpl', '# {{name}}\n{{ constructor }}\n');
const partialBomb = (root) => {
  // Each level includes the next 60 times: 60^3 copies of a 200 KB partial if nothing bounds the expansion.
  put(root, '.hub-agents/repo-implementer/body.md.tpl', '{{> p1}}\n'.repeat(60));
  put(root, '.hub-agents/repo-implementer/p1.md.tpl', '{{> p2}}\n'.repeat(60));
  put(root, '.hub-agents/repo-implementer/p2.md.tpl', '{{> p3}}\n'.repeat(60));
  put(root, '.hub-agents/repo-implementer/p3.md.tpl', 'y'.repeat(200 * 1024));
};
const cycle = (root) => {
  put(root, '.hub-agents/repo-implementer/body.md.tpl', '{{> a}}\n');
  put(root, '.hub-agents/repo-implementer/a.md.tpl', '{{> b}}\n');
  put(root, '.hub-agents/repo-implementer/b.md.tpl', '{{> a}}\n');
};

export const cases = [
  {
    name: 'cli: overlay template.yaml is a YAML alias bomb',
    ...cli(() => ['agent', 'show', 'repo-implementer'], bomb),
  },
  {
    name: 'http: overlay template.yaml alias bomb, preview',
    ...http('GET', '/v3/agents/templates/repo-implementer/preview', undefined, bomb),
  },
  {
    name: 'http: overlay template.yaml alias bomb, catalog still answers (problem listed)',
    ...http('GET', '/v3/agents/catalog', undefined, bomb, 'accepted'),
  },
  {
    name: 'mcp: overlay template.yaml alias bomb, preview',
    ...mcp('hub_agent_preview', { id: 'repo-implementer' }, bomb),
  },
  {
    name: 'cli: overlay template.yaml of 10 MB',
    ...cli(() => ['agent', 'preview', 'repo-implementer'], huge),
  },
  {
    name: 'http: overlay template.yaml of 10 MB',
    ...http('GET', '/v3/agents/templates/repo-implementer/preview', undefined, huge),
  },
  {
    name: 'cli: overlay template.yaml nested 5,000 deep',
    ...cli(() => ['agent', 'show', 'repo-implementer'], deep),
  },
  {
    name: 'cli: body.md.tpl symlinked out of the workspace',
    ...cli(() => ['agent', 'preview', 'repo-implementer'], outsideTpl),
  },
  {
    name: 'http: body.md.tpl symlinked to /etc/passwd',
    ...http('GET', '/v3/agents/templates/repo-implementer/preview', undefined, passwdTpl),
  },
  {
    name: 'mcp: body.md.tpl symlinked to /etc/passwd',
    ...mcp('hub_agent_preview', { id: 'repo-implementer' }, passwdTpl),
  },
  {
    name: 'cli: overlay folder symlinked out of the workspace',
    ...cli(
      () => ['agent', 'show', 'graph-curator'],
      (root, kit) => {
        const out = kit.tempDir('hub-hostile-out-');
        writeFileSync(join(out, 'template.yaml'), 'name: stolen\n');
        mkdirSync(join(root, '.hub-agents'));
        symlinkSync(out, join(root, '.hub-agents', 'graph-curator'));
      },
    ),
  },
  {
    name: 'http: overlay init through an overlay folder symlinked out of the workspace (nothing written there)',
    expect: 'refused',
    async run(kit) {
      const ws = workspace(kit);
      const out = kit.tempDir('hub-hostile-out-');
      mkdirSync(join(ws.root, '.hub-agents'));
      symlinkSync(out, join(ws.root, '.hub-agents', 'graph-curator'));
      const srv = await kit.server(ws.root, { env: ws.env });
      try {
        const res = await kit.request(srv.base, 'POST', '/v3/agents/templates/graph-curator/overlay/init', {
          body: { force: true },
        });
        if (readdirSync(out).length > 0)
          return { verdict: 'crash', detail: `wrote outside: ${readdirSync(out)}` };
        return kit.judgeHttp(res);
      } finally {
        await srv.close();
      }
    },
  },
  { name: 'cli: template id ../x', ...cli(() => ['agent', 'show', '../x']) },
  { name: 'cli: overlay init ../../etc', ...cli(() => ['agent', 'overlay', 'init', '../../etc']) },
  {
    name: 'http: template id ..%2F..%2Fetc in the preview path',
    ...http('GET', '/v3/agents/templates/..%2F..%2Fetc/preview'),
  },
  {
    name: 'http: overlay init of ..%2Fx (no folder outside .hub-agents)',
    expect: 'refused',
    async run(kit) {
      const ws = workspace(kit);
      const srv = await kit.server(ws.root, { env: ws.env });
      try {
        const res = await kit.request(srv.base, 'POST', '/v3/agents/templates/..%2Fx/overlay/init', {
          body: {},
        });
        if (existsSync(join(ws.root, 'x')) || existsSync(join(ws.root, '.hub-agents')))
          return { verdict: 'crash', detail: 'a folder was written' };
        return kit.judgeHttp(res);
      } finally {
        await srv.close();
      }
    },
  },
  {
    name: 'http: overlay init with local=true (team only over HTTP)',
    ...http('POST', '/v3/agents/templates/repo-implementer/overlay/init', { local: true }),
  },
  { name: 'mcp: template id ../../etc/passwd', ...mcp('hub_agent_preview', { id: '../../etc/passwd' }) },
  {
    name: 'cli: unknown variable {{ constructor }} in an overlay body (validate)',
    ...cli(() => ['agent', 'validate'], unknownVar),
  },
  {
    name: 'http: unknown variable {{ constructor }} never renders blank',
    ...http('GET', '/v3/agents/templates/repo-implementer/preview', undefined, unknownVar),
  },
  {
    name: 'cli: partial expansion bomb (60^3 includes of 200 KB)',
    ...cli(() => ['agent', 'preview', 'repo-implementer'], partialBomb),
  },
  { name: 'mcp: partial cycle', ...mcp('hub_agent_preview', { id: 'repo-implementer' }, cycle) },
  {
    name: 'cli: --answers-file is a FIFO (no writer: must not hang)',
    ...cli(
      (root) => ['agent', 'preview', 'repo-implementer', '--answers-file', join(root, 'fifo')],
      (root) => execFileSync('mkfifo', [join(root, 'fifo')]),
    ),
  },
  {
    name: 'cli: --answers-file is /dev/zero',
    ...cli(() => ['agent', 'export', 'repo-implementer', '-o', 'out', '--answers-file', '/dev/zero']),
  },
  {
    name: 'cli: --answers-file is a YAML alias bomb',
    ...cli(
      (root) => ['agent', 'preview', 'repo-implementer', '--answers-file', join(root, 'a.yml')],
      (root) => put(root, 'a.yml', BOMB.replace('recommended_skills', 'agent_id')),
    ),
  },
  {
    name: 'http: answers_file outside the workspace (/etc/hostname)',
    ...http('GET', '/v3/agents/templates/repo-implementer/preview?answers_file=%2Fetc%2Fhostname'),
  },
  {
    name: 'cli: export through a symlink out of the output folder, with --force',
    expect: 'refused',
    async run(kit) {
      const ws = workspace(kit);
      const out = kit.tempDir('hub-hostile-out-');
      writeFileSync(join(out, 'target.md'), 'keep\n');
      mkdirSync(join(ws.root, 'exp'));
      symlinkSync(join(out, 'target.md'), join(ws.root, 'exp', 'repo-implementer.md'));
      const r = await kit.hub(['agent', 'export', 'repo-implementer', '-o', 'exp', '--force', '--json'], {
        cwd: ws.root,
        env: ws.env,
      });
      return kit.judgeCli(r);
    },
  },
];
