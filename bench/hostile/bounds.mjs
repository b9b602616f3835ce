// Input bounds: nothing stored that cannot be read back. Deep and huge inputs on every surface, whole-document
// PUTs of the wrong shape, a document poisoned on disk by an older build, and manifests whose shape used to cost
// a stack overflow or minutes.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** `{a:{a:...{}}}` with `levels` objects, built without recursion. */
function nested(levels) {
  let v = {};
  for (let i = 1; i < levels; i++) v = { a: v };
  return v;
}

const DEEP_HANDOFF = { title: 'deep', payload: nested(3000) };
const stored = (root, name) => {
  try {
    return readFileSync(join(root, '.hub', `${name}.json`), 'utf8');
  } catch {
    return undefined;
  }
};

/** A verdict that also fails when the refused request still wrote the document. */
function refusedAndUnwritten(judged, before, after) {
  if (judged.verdict === 'refused' && before !== after)
    return { verdict: 'unclean', detail: `${judged.detail}; but the document changed` };
  return judged;
}

async function withServer(kit, fn) {
  const { root } = kit.demo();
  const s = await kit.server(root);
  try {
    return await fn(s, root);
  } finally {
    await s.close();
  }
}

/** The handoffs file as an older build left it: one good record and one whose payload nests `levels` deep. */
function poison(root, levels) {
  mkdirSync(join(root, '.hub'), { recursive: true });
  const at = '2026-01-01T00:00:00.000Z';
  const rec = (id, payload) =>
    `{"id":"${id}","title":"${id}","created_by":"old","created_at":"${at}","updated_at":"${at}","status":"open","events":[],"payload":${payload}}`;
  writeFileSync(
    join(root, '.hub', 'handoffs.json'),
    `{"handoffs":[${rec('ho-good', '{}')},${rec('ho-bad', `${'{"a":'.repeat(levels)}{}${'}'.repeat(levels)}`)}]}\n`,
  );
}

/** One repo whose components are c0..c{n-1}, `deps(i)` naming what ci depends on. */
function manifest(kit, n, deps, extra = '') {
  const parts = [];
  for (let i = 0; i < n; i++) {
    const d = deps(i);
    parts.push(
      `            - name: c${i}\n              path: c${i}\n${d.length ? `              depends_on: [${d.join(', ')}]\n` : ''}`,
    );
  }
  const dir = kit.tempDir();
  const file = join(dir, '.hub.yml');
  writeFileSync(
    file,
    `workspace:\n  name: w\n  projects:\n    - name: p\n      repos:\n        - name: r\n          path: r\n          components:\n${parts.join('')}${extra}`,
  );
  return file;
}

const chain = (kit) => manifest(kit, 6000, (i) => (i + 1 < 6000 ? [`c${i + 1}`] : []));

export const cases = [
  {
    name: 'http: POST /v3/ops/handoffs with a payload 3,000 levels deep',
    expect: 'refused',
    run: (kit) =>
      withServer(kit, async (s, root) => {
        const before = stored(root, 'handoffs');
        const r = await kit.request(s.base, 'POST', '/v3/ops/handoffs', { body: DEEP_HANDOFF });
        return refusedAndUnwritten(kit.judgeHttp(r), before, stored(root, 'handoffs'));
      }),
  },
  {
    name: 'http: every reader of handoffs answers after the deep POST',
    expect: 'accepted',
    run: (kit) =>
      withServer(kit, async (s) => {
        await kit.request(s.base, 'POST', '/v3/ops/handoffs', { body: DEEP_HANDOFF });
        const whole = kit.judgeHttp(await kit.request(s.base, 'GET', '/v3/ops/handoffs'));
        if (whole.verdict !== 'accepted') return whole;
        return kit.judgeHttp(await kit.request(s.base, 'GET', '/v3/ops/handoffs?status=open'));
      }),
  },
  {
    name: 'cli: context handoff create with a 3,000-level payload on stdin',
    expect: 'refused',
    run: async (kit) => {
      const { root } = kit.demo();
      const before = stored(root, 'handoffs');
      const r = await kit.hub(['context', 'handoff', 'create', '--json'], {
        cwd: root,
        input: JSON.stringify(DEEP_HANDOFF),
      });
      return refusedAndUnwritten(kit.judgeCli(r), before, stored(root, 'handoffs'));
    },
  },
  {
    name: 'cli: 2 MiB of JSON on stdin',
    expect: 'refused',
    run: async (kit) => {
      const { root } = kit.demo();
      const input = JSON.stringify({ title: 'big', payload: { s: 'x'.repeat(2 * 1024 * 1024) } });
      return kit.judgeCli(await kit.hub(['context', 'handoff', 'create', '--json'], { cwd: root, input }));
    },
  },
  {
    name: 'mcp: hub_handoff_create with a 3,000-level payload',
    expect: 'refused',
    run: async (kit) => {
      const { root } = kit.demo();
      const m = kit.mcp(root);
      try {
        await m.init();
        const before = stored(root, 'handoffs');
        m.send(
          `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'hub_handoff_create', arguments: DEEP_HANDOFF } })}\n`,
        );
        const judged = kit.judgeRpc(await m.next(20_000));
        if (judged.verdict === 'refused' && !judged.detail.startsWith('-32602'))
          return { verdict: 'unclean', detail: `not -32602: ${judged.detail}` };
        return refusedAndUnwritten(judged, before, stored(root, 'handoffs'));
      } finally {
        m.close();
      }
    },
  },
  {
    name: 'mcp: tools/call whose _meta nests 3,000 levels',
    expect: 'refused',
    run: async (kit) => {
      const { root } = kit.demo();
      const m = kit.mcp(root);
      try {
        await m.init();
        m.send(
          `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'hub_handoff_list', arguments: { x: nested(3000) }, _meta: nested(3000) } })}\n`,
        );
        return kit.judgeRpc(await m.next(20_000));
      } finally {
        m.close();
      }
    },
  },
  {
    name: 'mcp: tools/call with arguments and _meta nested 50,000 levels (sent as text)',
    expect: 'refused',
    run: async (kit) => {
      const { root } = kit.demo();
      const m = kit.mcp(root);
      try {
        await m.init();
        const deep = `${'{"a":'.repeat(50_000)}{}${'}'.repeat(50_000)}`;
        m.send(
          `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"hub_handoff_create","arguments":{"title":"t","payload":${deep}},"_meta":${deep}}}\n`,
        );
        return kit.judgeRpc(await m.next(20_000));
      } finally {
        m.close();
      }
    },
  },
  {
    name: 'cli: stdin JSON nested 50,000 levels',
    expect: 'refused',
    run: async (kit) => {
      const { root } = kit.demo();
      const input = `{"title":"t","payload":${'{"a":'.repeat(50_000)}{}${'}'.repeat(50_000)}}`;
      return kit.judgeCli(await kit.hub(['context', 'handoff', 'create', '--json'], { cwd: root, input }));
    },
  },
  {
    name: 'http: POST /v3/ops/objectives with a title nested 50,000 levels (sent as text)',
    expect: 'refused',
    run: (kit) =>
      withServer(kit, async (s) => {
        // Deeper than JSON.stringify can write: the body is built as text.
        const raw = `{"id":"o1","title":${'{"a":'.repeat(50_000)}{}${'}'.repeat(50_000)}}`;
        return kit.judgeHttp(
          await kit.request(s.base, 'POST', '/v3/ops/objectives', {
            raw,
            headers: { 'content-type': 'application/json' },
          }),
        );
      }),
  },
  {
    name: 'http: PUT /v3/ops/objectives {"objectives":"notalist"}',
    expect: 'refused',
    run: (kit) =>
      withServer(kit, async (s, root) => {
        const before = stored(root, 'objectives');
        const r = await kit.request(s.base, 'PUT', '/v3/ops/objectives', {
          body: { objectives: 'notalist' },
          headers: { 'if-match': '""' },
        });
        return refusedAndUnwritten(kit.judgeHttp(r), before, stored(root, 'objectives'));
      }),
  },
  {
    name: 'http: PUT /v3/ops/handoffs with a record without a title',
    expect: 'refused',
    run: (kit) =>
      withServer(kit, async (s) =>
        kit.judgeHttp(
          await kit.request(s.base, 'PUT', '/v3/ops/handoffs', {
            body: { handoffs: [{ id: 'h1', status: 'open' }] },
            headers: { 'if-match': '""' },
          }),
        ),
      ),
  },
  {
    name: 'http: PUT {"objectives":[{"id":"a","title":"t"}]} then POST /v3/ops/objectives',
    expect: 'accepted',
    run: (kit) =>
      withServer(kit, async (s) => {
        const put = kit.judgeHttp(
          await kit.request(s.base, 'PUT', '/v3/ops/objectives', {
            body: { objectives: [{ id: 'a', title: 't' }] },
            headers: { 'if-match': '""' },
          }),
        );
        if (put.verdict !== 'accepted') return put;
        return kit.judgeHttp(
          await kit.request(s.base, 'POST', '/v3/ops/objectives', { body: { id: 'b', title: 'u' } }),
        );
      }),
  },
  {
    name: 'http: PUT /v3/ops/handoffs nested 50,000 levels (sent as text)',
    expect: 'refused',
    run: (kit) =>
      withServer(kit, async (s, root) => {
        const before = stored(root, 'handoffs');
        const raw = `{"handoffs":[{"id":"h","title":"t","payload":${'{"a":'.repeat(50_000)}{}${'}'.repeat(50_000)}}]}`;
        const r = await kit.request(s.base, 'PUT', '/v3/ops/handoffs', {
          raw,
          headers: { 'content-type': 'application/json', 'if-match': '""' },
        });
        return refusedAndUnwritten(kit.judgeHttp(r), before, stored(root, 'handoffs'));
      }),
  },
  {
    name: 'http: generic PUT /v3/ops/state/{name} nested 3,000 levels',
    expect: 'refused',
    run: (kit) =>
      withServer(kit, async (s) =>
        kit.judgeHttp(
          await kit.request(s.base, 'PUT', '/v3/ops/state/notes', {
            body: { deep: nested(3000) },
            headers: { 'if-match': '""' },
          }),
        ),
      ),
  },
  {
    name: 'http: append to /v3/ops/state/{name}/{key} nested 3,000 levels',
    expect: 'refused',
    run: (kit) =>
      withServer(kit, async (s, root) => {
        const before = stored(root, 'notes');
        const r = await kit.request(s.base, 'POST', '/v3/ops/state/notes/items', { body: nested(3000) });
        return refusedAndUnwritten(kit.judgeHttp(r), before, stored(root, 'notes'));
      }),
  },
  {
    name: 'cli: handoff list over a document an older build poisoned (20,000 levels)',
    expect: 'accepted',
    run: async (kit) => {
      const { root } = kit.demo();
      poison(root, 20_000);
      const r = await kit.hub(['context', 'handoff', 'list', '--json'], { cwd: root });
      const judged = kit.judgeCli(r);
      if (judged.verdict === 'accepted' && !r.stdout.includes('"quarantined"'))
        return { verdict: 'unclean', detail: 'listed without saying the record was quarantined' };
      return judged;
    },
  },
  {
    name: 'http: GET /v3/ops/handoffs over a poisoned document',
    expect: 'accepted',
    run: async (kit) => {
      const { root } = kit.demo();
      poison(root, 20_000);
      const s = await kit.server(root);
      try {
        return kit.judgeHttp(await kit.request(s.base, 'GET', '/v3/ops/handoffs'));
      } finally {
        await s.close();
      }
    },
  },
  {
    name: 'mcp: hub_handoff_list over a poisoned document',
    expect: 'accepted',
    run: async (kit) => {
      const { root } = kit.demo();
      poison(root, 20_000);
      const m = kit.mcp(root);
      try {
        await m.init();
        m.send(
          `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'hub_handoff_list', arguments: {} } })}\n`,
        );
        return kit.judgeRpc(await m.next(20_000));
      } finally {
        m.close();
      }
    },
  },
  {
    name: 'cli: a write to another record of a poisoned document',
    expect: 'accepted',
    run: async (kit) => {
      const { root } = kit.demo();
      poison(root, 20_000);
      return kit.judgeCli(
        await kit.hub(['context', 'handoff', 'claim', '--id', 'ho-good', '--by', 'a', '--json'], {
          cwd: root,
        }),
      );
    },
  },
  {
    name: 'cli: config validate on a 6,000-component depends_on chain',
    expect: 'accepted',
    run: async (kit) => kit.judgeCli(await kit.hub(['-c', chain(kit), 'config', 'validate', '--json'])),
  },
  {
    name: 'cli: component graph on a 6,000-component depends_on chain',
    expect: 'accepted',
    run: async (kit) =>
      kit.judgeCli(
        await kit.hub(['-c', chain(kit), 'component', 'graph', 'c5999', '--direction', 'in', '--json']),
      ),
  },
  {
    name: 'cli: 700 components each depending on all 699 others',
    expect: 'refused',
    run: async (kit) => {
      const file = manifest(kit, 700, (i) =>
        Array.from({ length: 700 }, (_, j) => `c${j}`).filter((_, j) => j !== i),
      );
      const r = await kit.hub(['-c', file, 'component', 'list', '--json'], { timeoutMs: 20_000 });
      const judged = kit.judgeCli(r);
      if (judged.verdict === 'refused' && !/limit \d+/.test(r.stdout))
        return { verdict: 'unclean', detail: `no limit named: ${judged.detail}` };
      return judged;
    },
  },
  {
    name: 'cli: a 1.45-million-entry list in the manifest',
    expect: 'refused',
    run: async (kit) => {
      const file = manifest(
        kit,
        0,
        () => [],
        `            - name: c\n              path: c\n              produces: [${'a,'.repeat(1_450_000)}a]\n`,
      );
      return kit.judgeCli(await kit.hub(['-c', file, 'config', 'validate', '--json'], { timeoutMs: 20_000 }));
    },
  },
];
