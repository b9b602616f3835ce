// Claims, concepts and the claim guard under hostile input: patterns that escape the repository or are not globs,
// oversized and pathological patterns, bad agents, TTLs, repositories and components, another agent's claim,
// a hook planted as a symlink, a CODEOWNERS that is a FIFO or a symlink out, and reads that must not write.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join, relative } from 'node:path';

const REPO = 'platform/identity';

/** The CLI with the demo's manifest; `--json` last. */
const cli = (kit, demo, args, opts) => kit.hub(['-c', demo.manifestPath, ...args, '--json'], opts);

/** Claims `services/api/**` for agent holder (so that other agents have something to collide with). */
async function withHolder(kit) {
  const demo = kit.demo();
  const r = await cli(kit, demo, [
    'claim',
    'declare',
    '--repository',
    REPO,
    '--agent-id',
    'holder',
    '--pattern',
    'services/api/**',
  ]);
  if (r.code !== 0) throw new Error(`setup failed: ${r.stdout}${r.stderr}`);
  return demo;
}

/** Every file under .hub/ as path -> hash. */
function stateOf(root) {
  const out = {};
  const stack = [join(root, '.hub')];
  while (stack.length) {
    const d = stack.pop();
    if (!existsSync(d)) continue;
    for (const e of readdirSync(d)) {
      const p = join(d, e);
      if (statSync(p).isDirectory()) stack.push(p);
      else out[relative(root, p)] = createHash('sha256').update(readFileSync(p)).digest('hex');
    }
  }
  return JSON.stringify(out);
}

const declareCli = (args) => ({
  expect: 'refused',
  async run(kit) {
    const demo = kit.demo();
    return kit.judgeCli(
      await cli(kit, demo, ['claim', 'declare', '--repository', REPO, '--agent-id', 'a1', ...args]),
    );
  },
});

const declareHttp = (body, expect = 'refused') => ({
  expect,
  async run(kit) {
    const demo = kit.demo();
    const srv = await kit.server(demo.root);
    try {
      return kit.judgeHttp(await kit.request(srv.base, 'POST', '/v3/ops/claims', { body }));
    } finally {
      await srv.close();
    }
  },
});

export const cases = [
  {
    name: 'cli: a pattern climbing out of the repository (../x/**)',
    ...declareCli(['--pattern', '../x/**']),
  },
  { name: 'cli: an absolute pattern (/etc/**)', ...declareCli(['--pattern', '/etc/**']) },
  { name: 'cli: a negated pattern (!src/**)', ...declareCli(['--pattern', '!src/**']) },
  {
    name: 'cli: an absolute or climbing brace alternative ({/etc,src}/**; issue 25)',
    ...declareCli(['--pattern', '{/etc,src}/**']),
  },
  {
    name: 'http: absolute and climbing alternatives, nested braces and extglobs (issue 25)',
    ...declareHttp({
      repository: REPO,
      agent_id: 'a1',
      patterns: ['src/**', '{src,{lib,/etc}}/**', '@(..|src)/x', 'a/.{.,x}/b', '[/]etc/**'],
    }),
  },
  { name: 'cli: neither patterns nor a component', ...declareCli([]) },
  { name: 'cli: an unknown component (did-you-mean)', ...declareCli(['--component', 'apii']) },
  {
    name: 'cli: an unknown repository (did-you-mean)',
    expect: 'refused',
    async run(kit) {
      const demo = kit.demo();
      return kit.judgeCli(
        await cli(kit, demo, [
          'claim',
          'declare',
          '--repository',
          'platform/identty',
          '--agent-id',
          'a',
          '--pattern',
          'x',
        ]),
      );
    },
  },
  { name: 'cli: a TTL past the 7d limit', ...declareCli(['--pattern', 'x/**', '--ttl', '8d']) },
  { name: 'cli: a TTL that is not a duration', ...declareCli(['--pattern', 'x/**', '--ttl', '1y']) },
  {
    name: 'http: an unbalanced glob (src/[a)',
    ...declareHttp({ repository: REPO, agent_id: 'a1', patterns: ['src/[a'] }),
  },
  {
    name: 'http: a 10 KB pattern',
    ...declareHttp({ repository: REPO, agent_id: 'a1', patterns: [`${'a/'.repeat(5000)}**`] }),
  },
  {
    name: 'http: 5,000 patterns in one declaration',
    ...declareHttp({
      repository: REPO,
      agent_id: 'a1',
      patterns: Array.from({ length: 5000 }, (_, i) => `p${i}/**`),
    }),
  },
  {
    name: 'http: an agent id that names a path (../../etc)',
    ...declareHttp({ repository: REPO, agent_id: '../../etc', patterns: ['x/**'] }),
  },
  {
    name: 'http: pathological globs (nested extglobs, 12 brace sets, 200 stars) are decided quickly',
    ...declareHttp(
      {
        repository: REPO,
        agent_id: 'a1',
        patterns: ['+(+(+(+(+(a|b)))))/**', '{a,b}'.repeat(12), 'a*'.repeat(200), '*(*(*(*(a))))b'],
      },
      'accepted',
    ),
  },
  {
    name: "http: claiming inside another agent's live claim (409 naming the witness)",
    expect: 'refused',
    async run(kit) {
      const demo = await withHolder(kit);
      const srv = await kit.server(demo.root);
      try {
        const res = await kit.request(srv.base, 'POST', '/v3/ops/claims', {
          body: { repository: REPO, agent_id: 'intruder', patterns: ['services/*/main.go'] },
        });
        const j = kit.judgeHttp(res);
        if (
          res.status !== 409 ||
          res.json?.error?.details?.conflicts?.[0]?.witness !== 'services/api/main.go'
        )
          return { verdict: 'unclean', detail: `not a 409 with the witness: ${j.detail}` };
        return j;
      } finally {
        await srv.close();
      }
    },
  },
  {
    name: "cli: releasing another agent's claim without --force",
    expect: 'refused',
    async run(kit) {
      const demo = await withHolder(kit);
      const list = await cli(kit, demo, ['claim', 'list']);
      const id = JSON.parse(list.stdout).claims[0].claim_id;
      return kit.judgeCli(
        await cli(kit, demo, ['claim', 'release', '--claim-id', id, '--agent-id', 'intruder']),
      );
    },
  },
  {
    name: 'mcp: hub_claim_declare with a NUL in a pattern',
    expect: 'refused',
    async run(kit) {
      const demo = kit.demo();
      const m = kit.mcp(demo.root);
      try {
        await m.init();
        m.send(
          `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'hub_claim_declare', arguments: { repository: REPO, agent_id: 'a1', patterns: ['src/\u0000x'] } } })}\n`,
        );
        return kit.judgeRpc(await m.next());
      } finally {
        m.close();
      }
    },
  },
  {
    name: 'http: semantic declare with a bad repository and no patterns returns the errors as data, storing nothing',
    expect: 'refused',
    async run(kit) {
      const demo = kit.demo();
      const srv = await kit.server(demo.root);
      try {
        const before = stateOf(demo.root);
        const res = await kit.request(srv.base, 'POST', '/v3/ops/semantic/concepts', {
          body: { concept: 'Auth', repository: '../../etc', patterns: [] },
        });
        if (res.status !== 200 || res.json?.ok !== false || res.json.errors?.length !== 2)
          return { verdict: 'unclean', detail: `${res.status} ${res.text.slice(0, 160)}` };
        if (stateOf(demo.root) !== before) return { verdict: 'unclean', detail: 'something was stored' };
        return { verdict: 'refused', detail: res.json.errors.map((e) => e.rule).join(', ') };
      } finally {
        await srv.close();
      }
    },
  },
  {
    name: 'http: semantic owners of an absolute path',
    expect: 'refused',
    async run(kit) {
      const demo = kit.demo();
      const srv = await kit.server(demo.root);
      try {
        return kit.judgeHttp(
          await kit.request(srv.base, 'GET', `/v3/ops/semantic/owners?repository=${REPO}&path=/etc/passwd`),
        );
      } finally {
        await srv.close();
      }
    },
  },
  {
    name: 'http: GET of claims, checks and concept conflicts with an expiry pending writes nothing',
    expect: 'accepted',
    async run(kit) {
      const demo = kit.demo();
      const d = (agent, pattern, ttl) =>
        cli(kit, demo, [
          'claim',
          'declare',
          '--repository',
          REPO,
          '--agent-id',
          agent,
          '--pattern',
          pattern,
          '--ttl',
          ttl,
        ]);
      await cli(kit, demo, [
        'semantic',
        'declare',
        '--concept',
        'auth',
        '--repository',
        REPO,
        '--pattern',
        '**/auth/**',
      ]);
      await d('g1', 'a/auth/**', '1h');
      await d('g2', 'b/auth/**', '1h');
      await d('g3', 'c/**', '1s');
      await new Promise((r) => setTimeout(r, 1100));
      const srv = await kit.server(demo.root);
      try {
        const before = stateOf(demo.root);
        for (const path of [
          '/v3/ops/claims?status=all',
          `/v3/ops/claims/check?repository=${REPO}&patterns=**`,
          `/v3/ops/semantic/conflicts?repository=${REPO}`,
          '/v3/ops/semantic/concepts',
        ]) {
          const res = await kit.request(srv.base, 'GET', path);
          if (res.status !== 200) return kit.judgeHttp(res);
        }
        return stateOf(demo.root) === before
          ? { verdict: 'accepted', detail: 'state byte-identical' }
          : { verdict: 'unclean', detail: 'a GET changed .hub/' };
      } finally {
        await srv.close();
      }
    },
  },
  {
    name: 'cli: semantic ingest with CODEOWNERS as a FIFO and as a symlink out of the repository (never read)',
    expect: 'accepted',
    async run(kit) {
      const demo = kit.demo();
      const outside = kit.tempDir();
      writeFileSync(join(outside, 'CODEOWNERS'), '* @evil\n');
      const identity = join(demo.root, 'platform', 'identity');
      mkdirSync(join(identity, '.github'), { recursive: true });
      execFileSync('mkfifo', [join(identity, '.github', 'CODEOWNERS')]);
      symlinkSync(join(outside, 'CODEOWNERS'), join(demo.root, 'platform', 'gateway', 'CODEOWNERS'));
      const r = await cli(kit, demo, ['semantic', 'ingest'], { timeoutMs: 15_000 });
      const j = kit.judgeCli(r);
      if (j.verdict !== 'accepted') return j;
      const reports = JSON.parse(r.stdout).repositories;
      const evil = reports.some((x) => x.concepts.includes('evil'));
      const reasons = reports.filter((x) => x.reason?.includes('cannot be read')).length;
      return evil || reasons < 2
        ? { verdict: 'unclean', detail: `evil ingested: ${evil}; unreadable reported: ${reasons}` }
        : { verdict: 'accepted', detail: `${reasons} files refused, nothing ingested from them` };
    },
  },
  {
    name: 'cli: claim guard install where the pre-commit hook is a symlink out of the repository',
    expect: 'refused',
    async run(kit) {
      const demo = kit.demo();
      const outside = kit.tempDir();
      writeFileSync(join(outside, 'victim'), 'keep me\n');
      const hooks = join(demo.root, 'platform', 'identity', '.git', 'hooks');
      mkdirSync(hooks, { recursive: true });
      symlinkSync(join(outside, 'victim'), join(hooks, 'pre-commit'));
      const j = kit.judgeCli(await cli(kit, demo, ['claim', 'guard', 'install', '--repository', REPO]));
      if (readFileSync(join(outside, 'victim'), 'utf8') !== 'keep me\n')
        return { verdict: 'unclean', detail: 'the symlink target was written' };
      return j;
    },
  },
  {
    name: 'cli: claim guard check with a path climbing out (../../etc/passwd)',
    expect: 'refused',
    async run(kit) {
      const demo = kit.demo();
      return kit.judgeCli(
        await cli(kit, demo, ['claim', 'guard', 'check', '--repository', REPO, '--path', '../../etc/passwd']),
      );
    },
  },
];
