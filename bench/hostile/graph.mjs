// Hostile input for the workspace graph (issue 15): package files in a cloned repository that point out of it
// (symlinked package.json, npm workspaces that climb out), that block (a FIFO go.mod), that are huge (50 MB),
// that bomb their parsers (nested JSON, XML entities, YAML aliases); labels that try to break out of a Mermaid or
// DOT export; writes through the read-only route; bad neighbour queries over MCP. A correct hub reads none of
// what lies outside, never hangs or crashes, reports each file it skipped with its rule, and refuses the writes.
import { execFileSync } from 'node:child_process';
import { appendFileSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const SECRET = 'hub-hostile-graph-secret-7f3a';

/** Runs `hub graph --json` on the workspace; accepted only when `check(graph)` finds nothing wrong. */
async function graphCase(kit, root, check) {
  const r = await kit.hub(['-c', join(root, '.hub.yml'), 'graph', '--json'], { timeoutMs: 30_000 });
  const judged = kit.judgeCli(r);
  if (judged.verdict !== 'accepted') return judged;
  if (r.stdout.includes(SECRET))
    return { verdict: 'crash', detail: 'the output holds a file from outside the repository' };
  let g;
  try {
    g = JSON.parse(r.stdout);
  } catch {
    return { verdict: 'unclean', detail: 'stdout is not JSON' };
  }
  const problem = check(g);
  return problem
    ? { verdict: 'crash', detail: problem }
    : { verdict: 'accepted', detail: `${r.ms ?? '?'} ms` };
}

const skipped = (g, rule) => (g.inference?.skipped ?? []).some((s) => s.rule === rule);
const repoDir = (root, rel) => join(root, ...rel.split('/'));

/** A case that plants `plant(root, kit)` in the demo, then expects the graph to skip it with `rule`. */
const plantCase = (name, plant, rule) => ({
  name,
  expect: 'accepted',
  async run(kit) {
    const { root } = kit.demo();
    plant(root, kit);
    return graphCase(kit, root, (g) => (skipped(g, rule) ? undefined : `no skip with rule ${rule}`));
  },
});

export const cases = [
  plantCase(
    'package.json symlinked to a secret outside the repository (not read)',
    (root, kit) => {
      const outside = kit.tempDir('hub-hostile-graph-');
      writeFileSync(
        join(outside, 'package.json'),
        JSON.stringify({ name: SECRET, dependencies: { x: SECRET } }),
      );
      symlinkSync(join(outside, 'package.json'), join(repoDir(root, 'platform/identity'), 'package.json'));
    },
    'inside_root',
  ),
  plantCase(
    'go.mod that is a FIFO (no hang)',
    (root) => execFileSync('mkfifo', [join(repoDir(root, 'platform/gateway'), 'go.mod')]),
    'regular_file',
  ),
  plantCase(
    'package.json of 50 MB (max_size)',
    (root) =>
      writeFileSync(
        join(repoDir(root, 'platform/gateway'), 'package.json'),
        `{"name":"x","pad":"${'a'.repeat(50 * 1024 * 1024)}"}`,
      ),
    'max_size',
  ),
  plantCase(
    'package.json nested 500,000 deep (parse, no stack overflow)',
    (root) => writeFileSync(join(repoDir(root, 'platform/gateway'), 'package.json'), '['.repeat(500_000)),
    'parse',
  ),
  plantCase(
    'Chart.yaml alias bomb (parse)',
    (root) => {
      const lines = ['a: &a ["x","x","x","x","x","x","x","x","x"]'];
      for (let i = 1; i < 12; i++)
        lines.push(
          `${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(9)
            .fill(`*${String.fromCharCode(96 + i)}`)
            .join(',')}]`,
        );
      lines.push('name: *l');
      writeFileSync(join(repoDir(root, 'platform/gateway'), 'Chart.yaml'), `${lines.join('\n')}\n`);
    },
    'parse',
  ),
  plantCase(
    'npm workspaces climbing out of the repository (not followed)',
    (root) =>
      writeFileSync(
        join(repoDir(root, 'platform/gateway'), 'package.json'),
        JSON.stringify({ name: 'gw', workspaces: ['../../..', '../../../*', '/etc'] }),
      ),
    'inside_root',
  ),
  {
    name: 'pom.xml with an entity expansion bomb (entities never expanded)',
    expect: 'accepted',
    async run(kit) {
      const { root } = kit.demo();
      const ents = ['<!ENTITY a "aaaaaaaaaa">'];
      for (let i = 1; i < 10; i++)
        ents.push(`<!ENTITY ${'b'.repeat(i)} "${`&${i === 1 ? 'a' : 'b'.repeat(i - 1)};`.repeat(10)}">`);
      writeFileSync(
        join(repoDir(root, 'platform/gateway'), 'pom.xml'),
        `<?xml version="1.0"?>\n<!DOCTYPE project [${ents.join('')}]>\n<project><groupId>g</groupId><artifactId>&bbbbbbbbb;</artifactId></project>\n`,
      );
      return graphCase(kit, root, (g) =>
        JSON.stringify(g).includes('aaaaaaaaaaaaaaaaaaaa') ? 'an entity was expanded' : undefined,
      );
    },
  },
  {
    name: 'Mermaid and DOT exports of a label that tries to add a click handler',
    expect: 'accepted',
    async run(kit) {
      const { manifestPath } = kit.demo();
      appendFileSync(
        manifestPath,
        '  nodes:\n    - project: ext\n      repo: evil\n      label: "x\\"]\\nclick n0 \\"javascript:alert(1)\\"\\nn9[\\"y"\n',
      );
      for (const format of ['mermaid', 'dot']) {
        const r = await kit.hub(['-c', manifestPath, 'config', 'graph', 'export', '--format', format]);
        const judged = kit.judgeCli(r);
        if (judged.verdict !== 'accepted') return judged;
        if (r.stdout.split('\n').some((l) => /^\s*click\b/.test(l)))
          return { verdict: 'crash', detail: `${format}: the label added a click line` };
        const line = r.stdout.split('\n').find((l) => l.includes('javascript')) ?? '';
        const quotes = line.replace(/\\"/g, '').match(/"/g)?.length ?? 0;
        if (quotes !== (format === 'dot' ? 4 : 2))
          return {
            verdict: 'crash',
            detail: `${format}: the label closed its quotes: ${line.slice(0, 120)}`,
          };
      }
      return { verdict: 'accepted', detail: 'labels escaped' };
    },
  },
  {
    name: 'HTTP GET /v3/ops/graph/suggest?apply=true (GET never writes)',
    expect: 'refused',
    async run(kit) {
      const { root, manifestPath } = kit.demo();
      const before = readFileSync(manifestPath, 'utf8');
      const s = await kit.server(root);
      const res = await kit.request(s.base, 'GET', '/v3/ops/graph/suggest?apply=true');
      if (readFileSync(manifestPath, 'utf8') !== before)
        return { verdict: 'accepted', detail: 'the manifest changed' };
      return kit.judgeHttp(res);
    },
  },
  {
    name: 'MCP hub_graph_neighbors with depth "1; rm -rf /" and a 100 KB node',
    expect: 'refused',
    async run(kit) {
      const { root } = kit.demo();
      const m = kit.mcp(root);
      await m.init();
      const call = (id, args) =>
        `${JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'hub_graph_neighbors', arguments: args } })}\n`;
      m.send(call(1, { node: 'platform/gateway', depth: '1; rm -rf /' }));
      const first = kit.judgeRpc(await m.next());
      if (first.verdict !== 'refused') return first;
      m.send(call(2, { node: 'x'.repeat(100_000) }));
      return kit.judgeRpc(await m.next());
    },
  },
  {
    name: 'config graph suggest --apply on a manifest config validate rejects (nothing written)',
    expect: 'refused',
    async run(kit) {
      const { root, manifestPath } = kit.demo();
      // identity depends on gateway's package (no relationship declares it), and a component folder is missing.
      writeFileSync(join(repoDir(root, 'platform/gateway'), 'package.json'), JSON.stringify({ name: 'gw' }));
      writeFileSync(
        join(repoDir(root, 'platform/identity'), 'package.json'),
        JSON.stringify({ name: 'idp', dependencies: { gw: '1' } }),
      );
      const text = readFileSync(manifestPath, 'utf8');
      const broken = text.replace(
        /\n(\s*)- name: gateway-chart\n/,
        '\n$1- { name: ghost, path: no/such/dir }\n$1- name: gateway-chart\n',
      );
      if (broken === text) return { verdict: 'crash', detail: 'could not plant the broken component' };
      writeFileSync(manifestPath, broken);
      const r = await kit.hub(['-c', manifestPath, 'config', 'graph', 'suggest', '--apply', '--json']);
      if (readFileSync(manifestPath, 'utf8') !== broken)
        return { verdict: 'accepted', detail: 'the manifest was written' };
      return kit.judgeCli(r);
    },
  },
];
