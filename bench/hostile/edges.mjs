// HTTP and MCP edges, and secrets: the attacks of the trust issue's "HTTP and MCP edges" and "Secrets" sections.
// For secret cases the verdict is about the secret: `refused` when it is not shown anywhere, `accepted` when it is.
import { readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';

const SECRET = 'SECRET-0000';
const CONFIG = `# settings
state:
  backend: local
  token: state-token-${SECRET}1234
  api_key: apikey-${SECRET}5678
server:
  token: server-token-${SECRET}9999
`;
const SERVER_TOKEN = `server-token-${SECRET}9999`;
const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

/** One raw HTTP exchange on a socket: what the server wrote until it closed, as `{status, json, text}`. */
function rawExchange(base, text, { timeoutMs = 15_000 } = {}) {
  const { hostname, port } = new URL(base);
  return new Promise((resolve) => {
    const s = connect({ host: hostname, port: Number(port) });
    let got = '';
    const timer = setTimeout(() => {
      s.destroy();
      resolve({ status: 0, error: 'timeout' });
    }, timeoutMs);
    s.on('data', (d) => (got += d.toString('latin1')));
    s.on('error', () => {});
    s.on('close', () => {
      clearTimeout(timer);
      resolve(parseAnswer(got));
    });
    s.on('connect', () => s.write(text));
  });
}

function parseAnswer(raw) {
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(raw)?.[1] ?? 0);
  const body = raw.slice(raw.indexOf('\r\n\r\n') + 4);
  let json;
  try {
    json = JSON.parse(body);
  } catch {
    json = undefined;
  }
  return status
    ? { status, json, text: body }
    : { status: 0, error: raw ? 'no status line' : 'closed silently' };
}

/**
 * The demo workspace and a user config holding secrets (`env` points hub at it): server.token is a key only the
 * user's own config may set, so a workspace hub.config.yaml holding it is refused before anything is shown.
 */
function secretDemo(kit) {
  const d = kit.demo();
  const dir = kit.tempDir('hub-hostile-user-');
  writeFileSync(join(dir, 'config.yml'), CONFIG);
  return { ...d, env: { HUB_CONFIG_DIR: dir } };
}

/** `refused` when `text` shows no secret, else `accepted` with the line that leaked. */
function judgeSecret(text, what) {
  const line = String(text)
    .split('\n')
    .find((l) => l.includes(SECRET));
  return line === undefined
    ? { verdict: 'refused', detail: `${what}: no secret shown` }
    : { verdict: 'accepted', detail: `${what} leaked: ${line.trim().slice(0, 120)}` };
}

/** Reads MCP answers until the one with `id` (others, such as parse errors, are collected). */
async function answerFor(m, id, seen = [], max = 20) {
  for (let i = 0; i < max; i++) {
    const msg = await m.next(20_000);
    if (msg === undefined) return undefined;
    seen.push(msg);
    if (msg.id === id) return msg;
  }
  return undefined;
}

const call = (id, name, args = {}) =>
  `${JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } })}\n`;

export const cases = [
  {
    name: 'GET /v3/ops/session?advance=true from another site moves the session boundary',
    expect: 'refused',
    async run(kit) {
      const { root } = kit.demo();
      const srv = await kit.server(root);
      try {
        await kit.request(srv.base, 'POST', '/v3/ops/session/begin', { body: {} });
        const file = join(root, '.hub/session.json');
        const before = readFileSync(file, 'utf8');
        const res = await kit.request(srv.base, 'GET', '/v3/ops/session?advance=true', {
          headers: { origin: 'https://evil.example' },
        });
        if (readFileSync(file, 'utf8') !== before)
          return { verdict: 'accepted', detail: `${res.status}: the session document changed` };
        return kit.judgeHttp(res);
      } finally {
        await srv.close();
      }
    },
  },
  {
    name: '2,000 connections trickling a request body a byte every 2 s',
    expect: 'refused',
    async run(kit) {
      const { root } = kit.demo();
      const srv = await kit.server(root);
      const { hostname, port } = new URL(srv.base);
      const sockets = [];
      const results = [];
      try {
        for (let i = 0; i < 2000; i++) {
          const s = connect({ host: hostname, port: Number(port) });
          let got = '';
          s.on('error', () => {});
          s.on('data', (d) => (got += d.toString('latin1')));
          s.on('connect', () =>
            s.write(
              `POST /v3/ops/objectives HTTP/1.1\r\nHost: ${hostname}:${port}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n`,
            ),
          );
          results.push(new Promise((r) => s.on('close', () => r(got))));
          sockets.push(s);
        }
        const trickle = setInterval(() => {
          for (const s of sockets) if (!s.destroyed && s.writable) s.write(' ');
        }, 2000);
        const deadline = new Promise((r) => setTimeout(() => r('deadline'), 45_000));
        const all = Promise.all(results);
        const outcome = await Promise.race([all, deadline]);
        clearInterval(trickle);
        if (outcome === 'deadline') {
          const open = sockets.filter((s) => !s.destroyed).length;
          return { verdict: 'accepted', detail: `${open} connections still open after 45 s` };
        }
        const answered408 = outcome.filter((t) => t.startsWith('HTTP/1.1 408')).length;
        const after = await kit.request(srv.base, 'GET', '/v3/ops/components');
        if (!srv.alive() || after.status !== 200)
          return { verdict: 'crash', detail: `server not serving after the flood: ${after.status}` };
        return {
          verdict: 'refused',
          detail: `all 2000 closed by the server (${answered408} with 408, the rest over the connection cap); serving after`,
        };
      } finally {
        for (const s of sockets) s.destroy();
        await srv.close();
      }
    },
  },
  {
    name: 'HUB_SERVER_TOKEN=" " (blank) at start',
    expect: 'refused',
    async run(kit) {
      const { root } = kit.demo();
      const r = await kit.hub(['web', 'serve', '--root', root, '--port', '0', '--status-once'], {
        env: { HUB_SERVER_TOKEN: ' ' },
      });
      return kit.judgeCli(r);
    },
  },
  {
    name: 'MCP: objective-create hidden inside a refused oversized Content-Length frame',
    expect: 'refused',
    async run(kit) {
      const { root } = kit.demo();
      const m = kit.mcp(root);
      try {
        await m.init();
        const hidden = call(66, 'hub_objective_upsert', {
          id: 'smuggled',
          title: 'Hidden in a refused frame',
        });
        const declared = MAX_MESSAGE_BYTES + 1;
        const body = Buffer.alloc(declared, 0x20);
        body.write(`\n${hidden}`, 0);
        m.send(`Content-Length: ${declared}\r\n\r\n`);
        for (let i = 0; i < body.length; i += 1 << 20) m.send(body.subarray(i, i + (1 << 20)));
        m.send(call(2, 'hub_objective_list'));
        const seen = [];
        const list = await answerFor(m, 2, seen);
        if (seen.some((x) => x.id === 66) || list?.result?.structuredContent?.objectives?.length)
          return { verdict: 'accepted', detail: 'the hidden objective-create ran' };
        if (list === undefined) return { verdict: 'crash', detail: 'no answer to the next message' };
        return kit.judgeRpc(seen.find((x) => x.error?.code === -32700));
      } finally {
        m.close();
      }
    },
  },
  {
    name: 'MCP: a framed objective-create after a Content-Length that is not plain decimal (-5, 1e2, 0x10, +N, 10.5, abc, empty; issue 25)',
    expect: 'refused',
    async run(kit) {
      const { root } = kit.demo();
      const m = kit.mcp(root);
      try {
        await m.init();
        const bad = ['-5', '1e2', '0x10', '+120', '10.5', 'abc', ''];
        const seen = [];
        for (const [i, value] of bad.entries()) {
          // The frame's body, then a newline as a line-oriented client would add.
          const upsert = call(100 + i, 'hub_objective_upsert', { id: `smuggled-${i}`, title: 'x' });
          m.send(`Content-Length: ${value}\r\n\r\n${upsert}`);
        }
        m.send(call(2, 'hub_objective_list'));
        let list = await answerFor(m, 2, seen, 40);
        // Calls run concurrently: a smuggled create may answer after the list; drain, then list again.
        for (let x = await m.next(3_000); x !== undefined; x = await m.next(3_000)) seen.push(x);
        if (list !== undefined) {
          m.send(call(3, 'hub_objective_list'));
          list = await answerFor(m, 3, seen);
        }
        const ran = seen.filter((x) => typeof x.id === 'number' && x.id >= 100).length;
        if (ran > 0 || list?.result?.structuredContent?.objectives?.length)
          return { verdict: 'accepted', detail: `${ran} of ${bad.length} framed objective-creates ran` };
        if (list === undefined) return { verdict: 'crash', detail: 'no answer to the next message' };
        const refusals = seen.filter((x) => x.error?.code === -32700);
        if (refusals.length !== bad.length)
          return {
            verdict: 'unclean',
            detail: `${refusals.length} -32700 answers for ${bad.length} bad headers`,
          };
        return kit.judgeRpc(refusals[0]);
      } finally {
        m.close();
      }
    },
  },
  ...[
    ['tools/call with a name that is not a string', 'tools/call', { name: 42, arguments: {} }],
    [
      'tools/call with arguments that are not an object',
      'tools/call',
      { name: 'hub_component_list', arguments: [1] },
    ],
    ['tools/call without a name', 'tools/call', { arguments: {} }],
    ['resources/read without a uri', 'resources/read', {}],
  ].map(([name, method, params]) => ({
    name: `MCP: ${name}`,
    expect: 'refused',
    async run(kit) {
      const { root } = kit.demo();
      const m = kit.mcp(root);
      try {
        await m.init();
        m.send(`${JSON.stringify({ jsonrpc: '2.0', id: 5, method, params })}\n`);
        return kit.judgeRpc(await answerFor(m, 5));
      } finally {
        m.close();
      }
    },
  })),
  {
    name: 'HTTP: 64 KiB of headers (431)',
    expect: 'refused',
    async run(kit) {
      const { root } = kit.demo();
      const srv = await kit.server(root);
      try {
        const host = new URL(srv.base).host;
        return kit.judgeHttp(
          await rawExchange(
            srv.base,
            `GET /v3/ops/components HTTP/1.1\r\nHost: ${host}\r\nX-Big: ${'a'.repeat(64 * 1024)}\r\n\r\n`,
          ),
        );
      } finally {
        await srv.close();
      }
    },
  },
  {
    name: 'HTTP: URL path with malformed percent-encoding',
    expect: 'refused',
    async run(kit) {
      const { root } = kit.demo();
      const srv = await kit.server(root);
      try {
        const host = new URL(srv.base).host;
        return kit.judgeHttp(
          await rawExchange(
            srv.base,
            `PATCH /v3/ops/objectives/%E0%A4%A HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`,
          ),
        );
      } finally {
        await srv.close();
      }
    },
  },
  ...[
    ['appconfig patch preview shows the file tokens', []],
    ['appconfig patch --json shows the file tokens', ['--json']],
    ['appconfig patch --save shows the file tokens', ['--save']],
    ['appconfig patch --save --json shows the file tokens', ['--save', '--json']],
  ].map(([name, flags]) => ({
    name: `secrets: ${name}`,
    expect: 'refused',
    async run(kit) {
      const { root, env } = secretDemo(kit);
      const r = await kit.hub(
        ['appconfig', 'patch', '--op', 'set', '--path', 'state.conflict_retries', '--value', '2', ...flags],
        { cwd: root, env },
      );
      if (r.code !== 0) return kit.judgeCli(r);
      return judgeSecret(`${r.stdout}\n${r.stderr}`, 'patch output');
    },
  })),
  {
    name: 'secrets: token in state.url query shown by state info and hub://gate/status',
    expect: 'refused',
    async run(kit) {
      const { root, manifestPath } = kit.demo();
      const env = {
        HUB_STATE_BACKEND: 'http',
        HUB_STATE_URL: `https://hub.example/x?token=qs-${SECRET}4321`,
      };
      const r = await kit.hub(['-c', manifestPath, 'state', 'info', '--json'], { env });
      const cli = judgeSecret(`${r.stdout}\n${r.stderr}`, 'state info');
      if (cli.verdict !== 'refused') return cli;
      const m = kit.mcp(root, { env });
      try {
        await m.init();
        m.send(
          `${JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'resources/read', params: { uri: 'hub://gate/status' } })}\n`,
        );
        const msg = await answerFor(m, 3);
        if (!msg?.result) return kit.judgeRpc(msg);
        return judgeSecret(JSON.stringify(msg.result), 'state info and hub://gate/status');
      } finally {
        m.close();
      }
    },
  },
  {
    name: 'secrets: token in state.url userinfo echoed by the refusal',
    expect: 'refused',
    async run(kit) {
      const { manifestPath } = kit.demo();
      const r = await kit.hub(['-c', manifestPath, 'state', 'info'], {
        env: { HUB_STATE_URL: `ftp://user:pw-${SECRET}@h.example/x` },
      });
      if (r.code === 0) return { verdict: 'accepted', detail: 'a non-http state.url was taken' };
      return judgeSecret(`${r.stdout}\n${r.stderr}`, 'the error');
    },
  },
  {
    name: 'secrets: state token with an embedded newline echoed in an error',
    expect: 'refused',
    async run(kit) {
      const { manifestPath } = kit.demo();
      const r = await kit.hub(['-c', manifestPath, 'context', 'objective', 'list'], {
        env: {
          HUB_STATE_BACKEND: 'http',
          HUB_STATE_URL: 'http://127.0.0.1:9/',
          HUB_STATE_TOKEN: `abcd\n${SECRET}efgh`,
        },
      });
      if (r.code === 0) return { verdict: 'accepted', detail: 'the token was used' };
      return judgeSecret(`${r.stdout}\n${r.stderr}`, 'the error');
    },
  },
  {
    name: 'secrets: value echoed by a patch validation error (a mapping set on state)',
    expect: 'refused',
    async run(kit) {
      const { root, env } = secretDemo(kit);
      const r = await kit.hub(
        [
          'appconfig',
          'patch',
          '--op',
          'set',
          '--path',
          'state',
          '--value',
          `{"token":"leak-${SECRET}","bogus":1}`,
        ],
        { cwd: root, env },
      );
      if (r.code === 0) return { verdict: 'accepted', detail: 'the bad value was taken' };
      return judgeSecret(`${r.stdout}\n${r.stderr}`, 'the error');
    },
  },
  {
    name: 'secrets: GET /v3/config/appconfig with the server token',
    expect: 'refused',
    async run(kit) {
      const { root, env } = secretDemo(kit);
      const srv = await kit.server(root, { env });
      try {
        const res = await kit.request(srv.base, 'GET', '/v3/config/appconfig', {
          headers: { authorization: `Bearer ${SERVER_TOKEN}` },
        });
        if (res.status !== 200) return kit.judgeHttp(res);
        return judgeSecret(res.text, 'GET /v3/config/appconfig');
      } finally {
        await srv.close();
      }
    },
  },
];
