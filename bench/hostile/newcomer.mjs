// Hostile and careless inputs of the "manifests are never lost or churned" and "promises kept" items: a newcomer
// (or an agent) replacing, re-initialising and editing manifests, and reading errors on every surface.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const HAND_WRITTEN = `# edited by hand
workspace:
  name: "team"   # quoted
  agent_profile:
    skills: [code-review]
  projects:
  - name: platform
    repos:
      - name: identity
        path: ./platform/identity
        tags: [ go,  edge ]
        components:
          - {name: api, path: services/api, kind: service}
`;

/** Lines of `after` that are not in `before`, and lines of `before` gone from `after` (as multisets). */
function lineDiff(before, after) {
  const count = new Map();
  for (const l of before.split('\n')) count.set(l, (count.get(l) ?? 0) + 1);
  const added = [];
  for (const l of after.split('\n')) {
    const n = count.get(l) ?? 0;
    if (n > 0) count.set(l, n - 1);
    else added.push(l);
  }
  const removed = [...count].flatMap(([l, n]) => Array(n).fill(l));
  return { added, removed };
}

const backups = (dir) => readdirSync(dir).filter((f) => f.startsWith('.hub.yml.bak-'));

export const cases = [
  {
    name: 'init --force on a valid manifest keeps a backup of it',
    expect: 'accepted',
    run: async (kit) => {
      const { root, manifestPath } = kit.demo();
      const before = readFileSync(manifestPath, 'utf8');
      const r = await kit.hub(['init', '--force'], { cwd: root, env: { HUB_AGENT_MODE: '' } });
      const out = kit.judgeCli(r);
      if (out.verdict !== 'accepted') return out;
      const kept = backups(root);
      if (kept.length !== 1 || readFileSync(join(root, kept[0]), 'utf8') !== before)
        return { verdict: 'unclean', detail: 'the replaced manifest was lost (no backup with its content)' };
      if (!r.stdout.includes(kept[0])) return { verdict: 'unclean', detail: 'the backup was not reported' };
      return { verdict: 'accepted', detail: `backup ${kept[0]}` };
    },
  },
  {
    name: 'init --force in agent mode is blocked and changes nothing',
    expect: 'refused',
    run: async (kit) => {
      const { root, manifestPath } = kit.demo();
      const before = readFileSync(manifestPath, 'utf8');
      const out = kit.judgeCli(await kit.hub(['init', '--force'], { cwd: root }));
      if (readFileSync(manifestPath, 'utf8') !== before)
        return { verdict: 'unclean', detail: 'manifest changed' };
      return out;
    },
  },
  {
    name: 'init on a manifest with rule problems says what is wrong (not "already initialized")',
    expect: 'refused',
    run: async (kit) => {
      const dir = kit.tempDir();
      writeFileSync(
        join(dir, '.hub.yml'),
        'workspace:\n  projects:\n    - name: p\n      repos:\n        - name: r\n          url: https://example.com/r.git\n          components:\n            - {name: a, path: a, depends_on: [b]}\n            - {name: b, path: b, depends_on: [a]}\n',
      );
      const r = await kit.hub(['init'], { cwd: dir, env: { HUB_AGENT_MODE: '' } });
      const out = kit.judgeCli(r);
      if (out.verdict === 'refused' && !/cycle/i.test(r.stderr))
        return { verdict: 'unclean', detail: `refused without listing the problem: ${out.detail}` };
      return out;
    },
  },
  {
    name: 'init never points $schema into a node_modules the workspace lacks',
    expect: 'accepted',
    run: async (kit) => {
      const dir = kit.tempDir();
      const out = kit.judgeCli(await kit.hub(['init'], { cwd: dir }));
      if (out.verdict !== 'accepted') return out;
      const schema = /\$schema=(\S+)/.exec(readFileSync(join(dir, '.hub.yml'), 'utf8'))?.[1];
      if (schema && !existsSync(join(dir, schema)))
        return { verdict: 'unclean', detail: `$schema points at a missing file: ${schema}` };
      return { verdict: 'accepted', detail: schema ? `$schema ${schema}` : 'no $schema line' };
    },
  },
  {
    name: 'component init --apply of a folder that does not exist (CLI)',
    expect: 'refused',
    run: async (kit) => {
      const { root, manifestPath } = kit.demo();
      const before = readFileSync(manifestPath, 'utf8');
      const args = [
        'component',
        'init',
        'packages/tools',
        '--project',
        'platform',
        '--repo',
        'identity',
        '--apply',
      ];
      const out = kit.judgeCli(await kit.hub(args, { cwd: root }));
      if (readFileSync(manifestPath, 'utf8') !== before)
        return { verdict: 'unclean', detail: 'wrote a component config validate rejects' };
      return out;
    },
  },
  {
    name: 'component init apply of a folder that does not exist (HTTP)',
    expect: 'refused',
    run: async (kit) => {
      const { root } = kit.demo();
      const server = await kit.server(root);
      try {
        return kit.judgeHttp(
          await kit.request(server.base, 'POST', '/v3/ops/components/init', {
            body: { path: 'packages/tools', project: 'platform', repo: 'identity', apply: true },
          }),
        );
      } finally {
        await server.close();
      }
    },
  },
  {
    name: 'component init apply of a folder that does not exist (MCP)',
    expect: 'refused',
    run: async (kit) => {
      const { root } = kit.demo();
      const mcp = kit.mcp(root);
      try {
        await mcp.init();
        mcp.send(
          `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'hub_component_init', arguments: { path: 'packages/tools', project: 'platform', repo: 'identity', apply: true } } })}\n`,
        );
        return kit.judgeRpc(await mcp.next());
      } finally {
        mcp.close();
      }
    },
  },
  {
    name: 'a save keeps every unrelated line of a hand-written manifest byte-identical',
    expect: 'accepted',
    run: async (kit) => {
      const { root, manifestPath } = kit.demo();
      writeFileSync(manifestPath, HAND_WRITTEN);
      mkdirSync(join(root, 'platform', 'identity', 'tools', 'lint'), { recursive: true });
      const out = kit.judgeCli(
        await kit.hub(
          ['component', 'init', 'tools/lint', '--project', 'platform', '--repo', 'identity', '--apply'],
          {
            cwd: root,
          },
        ),
      );
      if (out.verdict !== 'accepted') return out;
      const d = lineDiff(HAND_WRITTEN, readFileSync(manifestPath, 'utf8'));
      // The new component follows its sibling's style: one flow-map line.
      const expected = '          - {name: lint, path: tools/lint, kind: unknown}';
      if (d.removed.length > 0 || d.added.length !== 1 || d.added[0] !== expected)
        return { verdict: 'unclean', detail: `churned: -${d.removed.length} +${d.added.length} lines` };
      return { verdict: 'accepted', detail: '+1 line, nothing else changed' };
    },
  },
  {
    name: 'import repo-manifest --force over an existing manifest keeps a backup',
    expect: 'accepted',
    run: async (kit) => {
      const { root, manifestPath } = kit.demo();
      const before = readFileSync(manifestPath, 'utf8');
      const out = kit.judgeCli(
        await kit.hub(['import', 'repo-manifest', 'default.xml', '--output', '.hub.yml', '--force'], {
          cwd: root,
        }),
      );
      if (out.verdict !== 'accepted') return out;
      const kept = backups(root);
      if (kept.length !== 1 || readFileSync(join(root, kept[0]), 'utf8') !== before)
        return { verdict: 'unclean', detail: 'the replaced manifest was lost' };
      return { verdict: 'accepted', detail: `backup ${kept[0]}` };
    },
  },
  {
    name: 'a misspelled project gets "did you mean" over HTTP, without an operation id',
    expect: 'refused',
    run: async (kit) => {
      const { root } = kit.demo();
      const server = await kit.server(root);
      try {
        const res = await kit.request(server.base, 'GET', '/v3/ops/components?project=platfrom');
        const out = kit.judgeHttp(res);
        if (out.verdict === 'refused' && !/did you mean 'platform'/.test(res.json.error.message))
          return { verdict: 'unclean', detail: `no suggestion: ${res.json.error.message}` };
        return out;
      } finally {
        await server.close();
      }
    },
  },
  {
    name: 'an out-of-range input names the field, not the internal operation id (MCP)',
    expect: 'refused',
    run: async (kit) => {
      const { root } = kit.demo();
      const mcp = kit.mcp(root);
      try {
        await mcp.init();
        mcp.send(
          `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'hub_context_pack', arguments: { tier: 7 } } })}\n`,
        );
        const msg = await mcp.next();
        const out = kit.judgeRpc(msg);
        if (/context\.pack/.test(msg?.error?.message ?? ''))
          return { verdict: 'unclean', detail: `internal id shown: ${msg.error.message}` };
        return out;
      } finally {
        mcp.close();
      }
    },
  },
];
