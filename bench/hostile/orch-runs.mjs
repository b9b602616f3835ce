// The run ledger, routing, lanes and policies under hostile input: evidence files that are FIFOs, devices,
// symlinks out of the workspace or too big; huge trigger lists and asks; unknown outcomes; run ids that try to
// name other documents (`/`, `..`); a second close; pathological policies and inputs.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** The CLI with the demo's manifest; `--json` last. */
const cli = (kit, demo, args, opts) => kit.hub(['-c', demo.manifestPath, ...args, '--json'], opts);

/** Opens a run on the CLI; returns its id. */
async function openRun(kit, demo) {
  const r = await cli(kit, demo, ['run', 'open', '--actor', 'hostile-agent']);
  if (r.code !== 0) throw new Error(`setup failed: ${r.stdout}${r.stderr}`);
  return JSON.parse(r.stdout).run.run_id;
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

/** One HTTP request against a fresh demo server (with a run opened first when `withRun`). */
const http = (method, path, body, { withRun = false, expect = 'refused', setup } = {}) => ({
  expect,
  async run(kit) {
    const demo = kit.demo();
    const id = withRun ? await openRun(kit, demo) : undefined;
    await setup?.(kit, demo);
    const srv = await kit.server(demo.root);
    try {
      const p = typeof path === 'function' ? path(id, demo) : path;
      const b = typeof body === 'function' ? body(id, demo) : body;
      return kit.judgeHttp(await kit.request(srv.base, method, p, b === undefined ? {} : { body: b }));
    } finally {
      await srv.close();
    }
  },
});

/** One MCP tool call against a fresh demo (with a run opened first when `withRun`). */
const mcp = (tool, args, { withRun = false, expect = 'refused' } = {}) => ({
  expect,
  async run(kit) {
    const demo = kit.demo();
    const id = withRun ? await openRun(kit, demo) : undefined;
    const m = kit.mcp(demo.root);
    try {
      await m.init();
      const a = typeof args === 'function' ? args(id, demo) : args;
      m.send(
        `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: tool, arguments: a } })}\n`,
      );
      return kit.judgeRpc(await m.next(30_000));
    } finally {
      m.close();
    }
  },
});

const EVIDENCE_LIMIT = 256 * 1024;

export const cases = [
  {
    name: 'cli: --evidence-file is a FIFO (no writer: must not hang)',
    expect: 'refused',
    async run(kit) {
      const demo = kit.demo();
      const id = await openRun(kit, demo);
      const fifo = join(kit.tempDir(), 'fifo');
      execFileSync('mkfifo', [fifo]);
      return kit.judgeCli(
        await cli(kit, demo, ['run', 'close', '--id', id, '--outcome', 'noop', '--evidence-file', fifo]),
      );
    },
  },
  {
    name: 'cli: --evidence-file is /dev/zero (endless character device)',
    expect: 'refused',
    async run(kit) {
      const demo = kit.demo();
      const id = await openRun(kit, demo);
      return kit.judgeCli(
        await cli(kit, demo, [
          'run',
          'close',
          '--id',
          id,
          '--outcome',
          'noop',
          '--evidence-file',
          '/dev/zero',
        ]),
      );
    },
  },
  {
    name: `cli: --evidence-file one byte over ${EVIDENCE_LIMIT} bytes`,
    expect: 'refused',
    async run(kit) {
      const demo = kit.demo();
      const id = await openRun(kit, demo);
      const big = join(kit.tempDir(), 'big.log');
      writeFileSync(big, 'x'.repeat(EVIDENCE_LIMIT + 1));
      return kit.judgeCli(
        await cli(kit, demo, ['run', 'close', '--id', id, '--outcome', 'noop', '--evidence-file', big]),
      );
    },
  },
  {
    name: 'http: evidence_file is a symlink in the workspace pointing out of it (/etc/passwd)',
    ...http(
      'POST',
      (id) => `/v3/ops/runs/${id}/close`,
      { outcome: 'noop', evidence_file: 'ev-link.log' },
      {
        withRun: true,
        setup: (_kit, demo) => symlinkSync('/etc/passwd', join(demo.root, 'ev-link.log')),
      },
    ),
  },
  {
    name: 'http: evidence_file is an absolute path outside the workspace',
    ...http(
      'POST',
      (id) => `/v3/ops/runs/${id}/close`,
      { outcome: 'noop', evidence_file: '/etc/hostname' },
      {
        withRun: true,
      },
    ),
  },
  {
    name: 'mcp: evidence_file climbs out of the workspace with ../',
    ...mcp('hub_run_close', (id) => ({ id, outcome: 'noop', evidence_file: '../../../../etc/passwd' }), {
      withRun: true,
    }),
  },
  {
    name: `http: inline evidence of ${EVIDENCE_LIMIT + 1} bytes`,
    ...http(
      'POST',
      (id) => `/v3/ops/runs/${id}/close`,
      () => ({
        outcome: 'noop',
        evidence: 'y'.repeat(EVIDENCE_LIMIT + 1),
      }),
      { withRun: true },
    ),
  },
  {
    name: 'cli: unknown outcome (merged)',
    expect: 'refused',
    async run(kit) {
      const demo = kit.demo();
      const id = await openRun(kit, demo);
      return kit.judgeCli(await cli(kit, demo, ['run', 'close', '--id', id, '--outcome', 'merged']));
    },
  },
  {
    name: 'http: unknown outcome (merged)',
    ...http('POST', (id) => `/v3/ops/runs/${id}/close`, { outcome: 'merged' }, { withRun: true }),
  },
  {
    name: 'http: closing a run twice (the second is refused, 409)',
    expect: 'refused',
    async run(kit) {
      const demo = kit.demo();
      const id = await openRun(kit, demo);
      const srv = await kit.server(demo.root);
      try {
        const first = await kit.request(srv.base, 'POST', `/v3/ops/runs/${id}/close`, {
          body: { outcome: 'landed' },
        });
        if (first.status !== 200) return { verdict: 'crash', detail: `first close ${first.status}` };
        return kit.judgeHttp(
          await kit.request(srv.base, 'POST', `/v3/ops/runs/${id}/close`, { body: { outcome: 'bounced' } }),
        );
      } finally {
        await srv.close();
      }
    },
  },
  {
    name: 'cli: run show --id ../../etc/passwd',
    expect: 'refused',
    async run(kit) {
      const demo = kit.demo();
      return kit.judgeCli(await cli(kit, demo, ['run', 'show', '--id', '../../etc/passwd']));
    },
  },
  {
    name: 'http: run id with an encoded slash (runs/x/../../agents/a)',
    ...http('GET', '/v3/ops/runs/x%2F..%2F..%2Fagents%2Fa', undefined),
  },
  {
    name: 'http: run id .. (encoded, so the URL is not collapsed)',
    ...http('POST', '/v3/ops/runs/%2E%2E/close', { outcome: 'noop' }),
  },
  {
    name: 'mcp: close a run id that names another document (agents/hostile-agent)',
    ...mcp('hub_run_close', { id: '../agents/hostile-agent', outcome: 'abandoned' }),
  },
  {
    name: 'http: run list with a cursor that is a path (../../x)',
    ...http('GET', '/v3/ops/runs?cursor=..%2F..%2Fx', undefined),
  },
  {
    name: 'http: route add with 10,000 triggers',
    ...http('POST', '/v3/ops/routing/classes', {
      id: 'REQ-huge',
      title: 'Huge',
      trigger: Array.from({ length: 10_000 }, (_, i) => `trigger ${i}`),
    }),
  },
  {
    name: 'mcp: route add with one 100 KB trigger',
    ...mcp('hub_route_add', { id: 'REQ-long', title: 'Long', trigger: ['word '.repeat(20_000)] }),
  },
  {
    name: 'http: route add with a class id ../x',
    ...http('POST', '/v3/ops/routing/classes', { id: '../x', title: 'x', trigger: ['x ray'] }),
  },
  {
    name: 'mcp: route query of 1 MB',
    ...mcp('hub_route_query', { ask: 'deploy '.repeat(150_000) }),
  },
  {
    name: 'http: route query of 64 KB in the query string',
    ...http('GET', `/v3/ops/routing/query?ask=${'fix%20'.repeat(13_000)}`, undefined),
  },
  {
    name: 'http: run open for an actor ../../x',
    ...http('POST', '/v3/ops/runs', { actor: '../../x' }),
  },
  {
    name: 'http: mr_url with a javascript: scheme',
    ...http(
      'POST',
      (id) => `/v3/ops/runs/${id}/close`,
      { outcome: 'landed', mr_url: 'javascript:alert(1)' },
      {
        withRun: true,
      },
    ),
  },
  {
    name: 'cli: lane eval --promote-after-clean 1e9',
    expect: 'refused',
    async run(kit) {
      const demo = kit.demo();
      return kit.judgeCli(await cli(kit, demo, ['lane', 'eval', '--promote-after-clean', '1000000000']));
    },
  },
  {
    name: 'http: policy set with 10,000 rules',
    ...http('POST', '/v3/ops/policies', {
      name: 'huge',
      rules: Array.from({ length: 10_000 }, () => ({ when: {}, effect: 'allow' })),
    }),
  },
  {
    name: 'http: policy set with an unknown operator (between)',
    ...http('POST', '/v3/ops/policies', {
      name: 'p',
      rules: [{ when: { n: { between: [1, 2] } }, effect: 'allow' }],
    }),
  },
  {
    name: 'http: policy eval of a nested glob against a 1 MB branch name (answers, quickly: long values never match)',
    expect: 'accepted',
    async run(kit) {
      const demo = kit.demo();
      const srv = await kit.server(demo.root);
      try {
        const set = await kit.request(srv.base, 'POST', '/v3/ops/policies', {
          body: {
            name: 'g',
            rules: [{ when: { branch: { glob: '**/**/**/**/**/*a*a*a*a*' } }, effect: 'deny' }],
            default: 'allow',
          },
        });
        if (set.status !== 200) return { verdict: 'crash', detail: `policy set ${set.status} ${set.text}` };
        const r = await kit.request(srv.base, 'POST', '/v3/ops/policies/g/eval', {
          body: { input: { branch: 'a/'.repeat(500_000) } },
        });
        return r.status === 200 && r.json?.decision !== 'allow'
          ? { verdict: 'crash', detail: `decided ${r.json?.decision}` }
          : kit.judgeHttp(r);
      } finally {
        await srv.close();
      }
    },
  },
  {
    name: 'http: policy eval with an input nested 200 levels deep',
    ...http('POST', '/v3/ops/policies/none/eval', () => {
      let input = {};
      for (let i = 0; i < 200; i++) input = { a: input };
      return { input };
    }),
  },
  {
    name: 'http: GET routes of the ledger never write (list, show, export, query, policies)',
    expect: 'accepted',
    async run(kit) {
      const demo = kit.demo();
      const id = await openRun(kit, demo);
      const srv = await kit.server(demo.root);
      try {
        const before = stateOf(demo.root);
        for (const p of [
          '/v3/ops/runs?open=true',
          `/v3/ops/runs/${id}`,
          '/v3/ops/runs/export?format=jsonl',
          '/v3/ops/routing/query?ask=fix%20bug',
          '/v3/ops/routing/classes',
          '/v3/ops/policies',
        ]) {
          const r = await kit.request(srv.base, 'GET', p);
          if (r.status >= 500) return { verdict: 'crash', detail: `${p} ${r.status}` };
        }
        return stateOf(demo.root) === before
          ? { verdict: 'accepted', detail: 'state unchanged' }
          : { verdict: 'unclean', detail: 'a GET changed .hub/' };
      } finally {
        await srv.close();
      }
    },
  },
];
