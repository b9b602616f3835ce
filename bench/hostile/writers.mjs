// Writers are served, not refused: concurrent writers on the local and the http backend with the default
// conflict_retries, the memory backend across MCP tool calls, and a listing that shows an expired claim as held.
// Each case reproduces an attack of the issue at a size the bench runs quickly (the full 8 x 25 run is
// bench/concurrent-writers.mjs); `accepted` means every write was taken and is there.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const WORKERS = 6;
const UPDATES = 3;

/** `WORKERS` chains of `UPDATES` `context objective set` processes at once; accepted when all exit 0 and are stored. */
async function writers(kit, root, manifest, env = {}) {
  const results = await Promise.all(
    Array.from({ length: WORKERS }, async (_, i) => {
      const out = [];
      for (let j = 0; j < UPDATES; j++)
        out.push(
          await kit.hub(
            ['-c', manifest, 'context', 'objective', 'set', '--id', `w${i}-${j}`, '--title', `W ${i} ${j}`],
            {
              env,
            },
          ),
        );
      return out;
    }),
  );
  const runs = results.flat();
  const bad = runs.find((r) => r.code !== 0);
  if (bad) {
    const j = kit.judgeCli(bad);
    return {
      verdict: j.verdict === 'accepted' ? 'unclean' : j.verdict,
      detail: `a writer was turned away: ${j.detail}`,
    };
  }
  const ids = new Set(
    JSON.parse(readFileSync(join(root, '.hub', 'objectives.json'), 'utf8')).objectives.map((o) => o.id),
  );
  const missing = runs.length - [...ids].filter((id) => /^w\d+-\d+$/.test(id)).length;
  if (missing)
    return { verdict: 'unclean', detail: `${missing} of ${runs.length} accepted writes are missing` };
  return { verdict: 'accepted', detail: `${runs.length}/${runs.length} accepted and present` };
}

const rpc = (id, name, args) =>
  `${JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } })}\n`;

const lapsedClaim = {
  handoffs: [
    {
      id: 'lapsed',
      title: 'Lapsed claim',
      created_by: 'alice',
      created_at: '2026-01-01T00:00:00.000Z',
      updated_at: '2026-01-01T00:00:00.000Z',
      status: 'claimed',
      payload: {},
      claimed_by: 'bob',
      claim_ttl: '1m',
      claim_expires_at: '2026-01-01T00:01:00.000Z',
      events: [{ at: '2026-01-01T00:00:00.000Z', by: 'bob', action: 'claim' }],
    },
  ],
};

export const cases = [
  {
    name: `local: ${WORKERS} x ${UPDATES} concurrent context objective set, default conflict_retries`,
    expect: 'accepted',
    async run(kit) {
      const { root, manifestPath } = kit.demo();
      return writers(kit, root, manifestPath);
    },
  },
  {
    name: `http: ${WORKERS} x ${UPDATES} concurrent context objective set through a hub server`,
    expect: 'accepted',
    async run(kit) {
      const { root, manifestPath } = kit.demo();
      const srv = await kit.server(root);
      try {
        return await writers(kit, root, manifestPath, { HUB_STATE_BACKEND: 'http', HUB_STATE_URL: srv.base });
      } finally {
        await srv.close();
      }
    },
  },
  {
    name: 'http: concurrent claims of one handoff: one holder, the rest refused naming it, no conflict',
    expect: 'accepted',
    async run(kit) {
      const { root, manifestPath } = kit.demo();
      writeFileSync(join(root, 'hub.config.yaml'), 'state:\n  conflict_retries: 0\n');
      const srv = await kit.server(root);
      const env = { HUB_STATE_BACKEND: 'http', HUB_STATE_URL: srv.base };
      try {
        const made = await kit.hub(
          ['-c', manifestPath, 'context', 'handoff', 'create', '--id', 'h', '--title', 'T'],
          {
            env,
          },
        );
        if (made.code !== 0) return kit.judgeCli(made);
        const runs = await Promise.all(
          Array.from({ length: 6 }, (_, i) =>
            kit.hub(
              ['-c', manifestPath, 'context', 'handoff', 'claim', '--id', 'h', '--by', `a${i}`, '--json'],
              {
                env,
              },
            ),
          ),
        );
        const won = runs.filter((r) => r.code === 0).length;
        const conflicts = runs.filter((r) => /"code":\s*"conflict"/.test(r.stdout)).length;
        const refused = runs.filter((r) => /"rule":\s*"single_holder"/.test(r.stdout)).length;
        if (won === 1 && refused === 5) return { verdict: 'accepted', detail: '1 holder, 5 refused (409)' };
        return { verdict: 'unclean', detail: `won ${won}, refused ${refused}, conflicts ${conflicts}` };
      } finally {
        await srv.close();
      }
    },
  },
  {
    name: 'mcp on the memory backend: hub_objective_upsert then hub_objective_list',
    expect: 'accepted',
    async run(kit) {
      const { root } = kit.demo();
      const m = kit.mcp(root, { env: { HUB_STATE_BACKEND: 'memory' } });
      try {
        await m.init();
        m.send(rpc(1, 'hub_objective_upsert', { id: 'kept', title: 'Kept' }));
        const up = await m.next();
        if (kit.judgeRpc(up).verdict !== 'accepted') return kit.judgeRpc(up);
        m.send(rpc(2, 'hub_objective_list', {}));
        const list = await m.next();
        const listed = list?.result?.structuredContent?.objectives ?? [];
        return listed.some((o) => o.id === 'kept')
          ? { verdict: 'accepted', detail: 'listed after the upsert' }
          : { verdict: 'unclean', detail: `list after upsert gave ${JSON.stringify(listed)}` };
      } finally {
        m.close();
      }
    },
  },
  {
    name: 'GET /v3/ops/handoffs with an expired claim: shown released, as every surface lists it, and nothing written',
    expect: 'accepted',
    async run(kit) {
      const { root, manifestPath } = kit.demo();
      const srv = await kit.server(root);
      try {
        const put = await kit.request(srv.base, 'PUT', '/v3/ops/handoffs', {
          body: lapsedClaim,
          headers: { 'if-match': '""' },
        });
        if (put.status !== 200) return kit.judgeHttp(put);
        const file = join(root, '.hub', 'handoffs.json');
        const before = readFileSync(file, 'utf8');
        const got = await kit.request(srv.base, 'GET', '/v3/ops/handoffs');
        const cli = await kit.hub(['-c', manifestPath, 'context', 'handoff', 'list', '--json']);
        const status = got.json?.handoffs?.[0]?.status;
        const cliStatus = JSON.parse(cli.stdout || '{}').handoffs?.[0]?.status;
        if (readFileSync(file, 'utf8') !== before)
          return { verdict: 'unclean', detail: 'a GET changed the document' };
        if (status !== 'open' || cliStatus !== 'open')
          return { verdict: 'unclean', detail: `GET shows ${status}, the CLI ${cliStatus}` };
        return { verdict: 'accepted', detail: 'released on GET and CLI; the stored document unchanged' };
      } finally {
        await srv.close();
      }
    },
  },
];
