// Hostile inputs of project sync, sources, prune and the org index: manifests whose clone URLs run commands
// (ext::, fd::, remote helpers) or carry passwords, checkouts that plant hooks, core.fsmonitor or a widened
// protocol.ext.allow, prune pointed at links out of the workspace and at hub's own state, a provider API that is
// not https, links its next page to another origin, answers 20 MB or 500,000 levels deep, names repositories
// `../../etc` or echoes the token, and org, project and repository names that climb out. The hosts here are small
// loopback servers made up in this file (the real APIs cannot be reached from this machine).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';

const SECRET = 'HOSTILE-SYNC-SECRET-7f3a';
const TOKEN = 'ghp_HOSTILE_TOKEN_0123456789abcdef';

const git = (cwd, args) =>
  execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 't',
      GIT_AUTHOR_EMAIL: 't@e',
      GIT_COMMITTER_NAME: 't',
      GIT_COMMITTER_EMAIL: 't@e',
    },
  });

/** A repository with one commit and its bare copy; `url` clones the bare one over file://. */
function upstream(dir, name) {
  const work = join(dir, 'upstream', name);
  mkdirSync(work, { recursive: true });
  git(work, ['init', '-q', '-b', 'main']);
  writeFileSync(join(work, 'README.md'), `# ${name}\n`);
  git(work, ['add', '-A']);
  git(work, ['commit', '-q', '-m', 'init']);
  const bare = join(dir, 'remotes', `${name}.git`);
  git(dir, ['clone', '-q', '--bare', work, bare]);
  return { work, bare, url: `file://${bare}` };
}

function push(u, file) {
  writeFileSync(join(u.work, file), `${file}\n`);
  git(u.work, ['add', '-A']);
  git(u.work, ['commit', '-q', '-m', `add ${file}`]);
  git(u.work, ['push', '-q', u.bare, 'main']);
}

/** A workspace folder (a git repository) with this manifest. */
function workspace(kit, manifest) {
  const dir = kit.tempDir('hub-hostile-sync-');
  const root = join(dir, 'ws');
  mkdirSync(root, { recursive: true });
  git(root, ['init', '-q', '-b', 'main']);
  writeFileSync(join(root, '.hub.yml'), manifest);
  return { dir, root };
}

const oneRepo = (url, name = 'a') =>
  `workspace:\n  projects:\n    - name: p\n      repos:\n        - name: ${name}\n          url: "${url}"\n`;

/** A loopback host answering `handler(path, base)` -> {status, headers, body} (body: string or a generator). */
async function fakeHost(handler) {
  const hits = [];
  let base = '';
  const server = createServer((req, res) => {
    hits.push({ url: req.url, auth: req.headers.authorization ?? '' });
    const a = handler(new URL(req.url, base).pathname, base, req);
    res.writeHead(a.status ?? 200, { 'content-type': 'application/json', ...(a.headers ?? {}) });
    if (typeof a.body === 'function') a.body(res);
    else res.end(typeof a.body === 'string' ? a.body : JSON.stringify(a.body));
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${server.address().port}`;
  return {
    base,
    hits,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(r);
      }),
  };
}

const ghRepo = (name, extra = {}) => ({
  id: name,
  name,
  full_name: `acme/${name}`,
  owner: { login: 'acme' },
  clone_url: `https://example.invalid/acme/${name}.git`,
  ...extra,
});

const rpc = (id, name, args) =>
  `${JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } })}\n`;

const parse = (text) => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

/** Every row of a sync answer refused by transport, and the command never ran. */
function transportVerdict(json, marker) {
  if (existsSync(marker)) return { verdict: 'accepted', detail: 'the command in the url ran' };
  const rows = json?.repos ?? [];
  const bad = rows.filter((r) => r.reason !== 'git_url_transport');
  return rows.length > 0 && bad.length === 0
    ? { verdict: 'refused', detail: `${rows.length} url(s) refused: git_url_transport` }
    : { verdict: 'accepted', detail: `rows not refused: ${JSON.stringify(bad).slice(0, 160)}` };
}

/** An org index file written straight to .hub/org (what `org index` stores). */
function writeIndex(root, repos) {
  const dir = join(root, '.hub', 'org', 'github');
  mkdirSync(dir, { recursive: true });
  const at = new Date().toISOString();
  const file = {
    schema: 1,
    provider: 'github',
    namespace: 'acme',
    kind: 'org',
    indexed_at: at,
    api: 'https://api.example.invalid',
    pages: 1,
    truncated: false,
    repos: repos.map((r) => ({
      provider: 'github',
      id: r.name,
      namespace: 'acme',
      name: r.name,
      full_name: `acme/${r.name}`,
      identity: `github://acme/${r.name}`,
      description: null,
      language: null,
      topics: [],
      archived: false,
      fork: false,
      visibility: 'public',
      default_branch: 'main',
      clone_url: r.clone_url,
      ssh_url: null,
      web_url: null,
      pushed_at: at,
      updated_at: null,
      stars: 0,
      has: [],
      first_indexed_at: at,
    })),
  };
  writeFileSync(join(dir, 'acme.json'), JSON.stringify(file));
}

export const cases = [
  {
    name: 'project sync on the CLI: a manifest url ext::sh -c touch <marker>',
    expect: 'refused',
    run: async (kit) => {
      const dir = kit.tempDir();
      const marker = join(dir, 'ext-ran');
      const w = workspace(kit, oneRepo(`ext::sh -c touch% ${marker}`));
      const r = await kit.hub(['project', 'sync', '--json'], { cwd: w.root });
      if (r.code !== 0 && r.code !== 1) return kit.judgeCli(r);
      return transportVerdict(parse(r.stdout), marker);
    },
  },
  {
    name: 'the git sync job over HTTP (POST /v3/ops/sync): fd::, transport:: and a -option host',
    expect: 'refused',
    run: async (kit) => {
      const dir = kit.tempDir();
      const marker = join(dir, 'fd-ran');
      const w = workspace(
        kit,
        `workspace:\n  projects:\n    - name: p\n      repos:\n` +
          `        - {name: a, url: "fd::17"}\n` +
          `        - {name: b, url: "transport::https://example.invalid/x"}\n` +
          `        - {name: c, url: "ssh://-oProxyCommand=touch%20${marker}/x"}\n`,
      );
      const s = await kit.server(w.root);
      try {
        const r = await kit.request(s.base, 'POST', '/v3/ops/sync', {
          body: { project_name: 'p', refresh_sources: true },
        });
        if (r.status !== 200) return kit.judgeHttp(r);
        return transportVerdict(r.json, marker);
      } finally {
        await s.close();
      }
    },
  },
  {
    name: 'hub_workspace_sync over MCP: a checkout whose own config allows ext:: and whose origin is ext::',
    expect: 'refused',
    run: async (kit) => {
      const dir = kit.tempDir();
      const marker = join(dir, 'planted-ext-ran');
      const u = upstream(dir, 'a');
      const w = workspace(kit, oneRepo(u.url));
      const repo = join(w.root, 'p', 'a');
      git(dir, ['clone', '-q', u.url, repo]);
      git(repo, ['config', 'protocol.ext.allow', 'always']);
      git(repo, ['remote', 'set-url', 'origin', `ext::sh -c touch% ${marker}`]);
      const m = kit.mcp(w.root);
      try {
        await m.init();
        m.send(rpc(1, 'hub_workspace_sync', { project_name: 'p' }));
        const msg = await m.next(60_000);
        if (existsSync(marker)) return { verdict: 'accepted', detail: 'the planted ext:: remote ran' };
        if (!msg?.result || msg.result.isError) return kit.judgeRpc(msg);
        const row = msg.result.structuredContent.repos[0];
        return { verdict: 'refused', detail: `${row.action} ${row.reason ?? ''}: nothing ran` };
      } finally {
        m.close();
      }
    },
  },
  {
    name: 'project sync: a password in a manifest url is never printed (refused http://, unreachable https://)',
    expect: 'refused',
    run: async (kit) => {
      const w = workspace(
        kit,
        `workspace:\n  projects:\n    - name: p\n      repos:\n` +
          `        - {name: a, url: "http://alice:${SECRET}@example.invalid/x.git"}\n` +
          `        - {name: b, url: "https://alice:${SECRET}@127.0.0.1:9/x.git"}\n`,
      );
      const json = await kit.hub(['project', 'sync', '--json'], { cwd: w.root });
      const human = await kit.hub(['project', 'sync'], { cwd: w.root });
      const text = json.stdout + json.stderr + human.stdout + human.stderr;
      if (text.includes(SECRET)) return { verdict: 'accepted', detail: 'the password was printed' };
      if (json.code !== 1) return kit.judgeCli(json);
      return { verdict: 'refused', detail: 'both failed, the password masked' };
    },
  },
  {
    name: 'project sync fast-forwards a checkout with a planted post-merge hook and core.fsmonitor',
    expect: 'refused',
    run: async (kit) => {
      const dir = kit.tempDir();
      const hookMarker = join(dir, 'hook-ran');
      const fsmMarker = join(dir, 'fsmonitor-ran');
      const u = upstream(dir, 'a');
      const w = workspace(kit, oneRepo(u.url));
      const repo = join(w.root, 'p', 'a');
      git(dir, ['clone', '-q', u.url, repo]);
      for (const hook of ['post-merge', 'post-checkout', 'reference-transaction', 'pre-merge-commit']) {
        writeFileSync(join(repo, '.git', 'hooks', hook), `#!/bin/sh\ntouch ${hookMarker}\n`, { mode: 0o755 });
      }
      git(repo, ['config', 'core.fsmonitor', `touch ${fsmMarker}; false`]);
      push(u, 'new.txt');
      const r = await kit.hub(['project', 'sync', '--json'], { cwd: w.root });
      if (existsSync(hookMarker)) return { verdict: 'accepted', detail: 'a planted hook ran' };
      if (existsSync(fsmMarker)) return { verdict: 'accepted', detail: 'core.fsmonitor ran' };
      if (r.code !== 0) return kit.judgeCli(r);
      const row = parse(r.stdout)?.repos[0];
      return row?.action === 'updated' && existsSync(join(repo, 'new.txt'))
        ? { verdict: 'refused', detail: `updated ${row.from}..${row.to} with no hook or fsmonitor run` }
        : { verdict: 'accepted', detail: `unexpected row ${JSON.stringify(row)}` };
    },
  },
  {
    name: 'project repo prune --force: a link under a project folder to a checkout outside the workspace',
    expect: 'refused',
    run: async (kit) => {
      const dir = kit.tempDir();
      const outside = join(dir, 'outside', 'precious');
      mkdirSync(outside, { recursive: true });
      git(outside, ['init', '-q', '-b', 'main']);
      writeFileSync(join(outside, 'keep.txt'), `${SECRET}\n`);
      const w = workspace(kit, 'workspace:\n  projects:\n    - name: p\n      repos: []\n');
      mkdirSync(join(w.root, 'p'));
      symlinkSync(outside, join(w.root, 'p', 'link-out'));
      symlinkSync(join(dir, 'outside'), join(w.root, 'p', 'parent-link'));
      const r = await kit.hub(['project', 'repo', 'prune', '--force', '--include-hidden', '--json'], {
        cwd: w.root,
      });
      if (!existsSync(join(outside, 'keep.txt')) || !existsSync(join(outside, '.git')))
        return { verdict: 'accepted', detail: 'the target outside was removed' };
      if (r.code !== 0) return kit.judgeCli(r);
      return { verdict: 'refused', detail: 'links unlinked, their targets untouched' };
    },
  },
  {
    name: 'prune --force --include-hidden over HTTP: managed checkouts, .hub, worktrees and a link to .hub stay',
    expect: 'refused',
    run: async (kit) => {
      const { root } = kit.demo();
      mkdirSync(join(root, '.hub', 'keep'), { recursive: true });
      writeFileSync(join(root, '.hub', 'keep', 'state.json'), '{}');
      symlinkSync(join(root, '.hub'), join(root, 'platform', 'state-link'));
      symlinkSync(join(root, 'platform', 'gateway'), join(root, 'storefront', 'gateway-link'));
      mkdirSync(join(root, 'platform', '.old-clone'));
      const managed = ['platform/identity', 'platform/gateway', 'platform/cloud-infra', 'storefront/web'];
      const s = await kit.server(root);
      try {
        const r = await kit.request(s.base, 'POST', '/v3/ops/prune', {
          body: { force: true, include_hidden: true },
        });
        if (r.status !== 200) return kit.judgeHttp(r);
        const lost = managed.filter((m) => !existsSync(join(root, m, '.git')));
        if (lost.length) return { verdict: 'accepted', detail: `managed checkouts removed: ${lost}` };
        if (!existsSync(join(root, '.hub', 'keep', 'state.json')))
          return { verdict: 'accepted', detail: '.hub was pruned' };
        if (!existsSync(join(root, 'platform', 'state-link')))
          return { verdict: 'accepted', detail: 'the link to .hub was pruned' };
        const removed = r.json.folders.filter((f) => f.action === 'removed').map((f) => f.path);
        return { verdict: 'refused', detail: `kept everything managed; removed only ${removed.join(', ')}` };
      } finally {
        await s.close();
      }
    },
  },
  {
    name: 'org index: HUB_GITHUB_API_URL over plain http off loopback (the token would cross the network)',
    expect: 'refused',
    run: async (kit) => {
      const w = workspace(kit, 'workspace:\n  projects: []\n');
      const r = await kit.hub(['org', 'index', 'github', 'acme', '--json'], {
        cwd: w.root,
        env: { HUB_GITHUB_API_URL: 'http://203.0.113.7/api', GITHUB_TOKEN: TOKEN },
        timeoutMs: 20_000,
      });
      if ((r.stdout + r.stderr).includes(TOKEN)) return { verdict: 'accepted', detail: 'token printed' };
      return kit.judgeCli(r);
    },
  },
  {
    name: 'org index: the first page links its next page to another origin',
    expect: 'refused',
    run: async (kit) => {
      const thief = await fakeHost(() => ({ body: [ghRepo('stolen')] }));
      const host = await fakeHost(() => ({
        headers: { link: `<${thief.base}/orgs/acme/repos?page=2>; rel="next"` },
        body: [ghRepo('api')],
      }));
      try {
        const w = workspace(kit, 'workspace:\n  projects: []\n');
        const r = await kit.hub(['org', 'index', 'github', 'acme', '--json'], {
          cwd: w.root,
          env: { HUB_GITHUB_API_URL: host.base, GITHUB_TOKEN: TOKEN },
        });
        if (thief.hits.length > 0)
          return {
            verdict: 'accepted',
            detail: `the other origin was asked (${thief.hits[0].auth || 'no'} auth)`,
          };
        return kit.judgeCli(r);
      } finally {
        await thief.close();
        await host.close();
      }
    },
  },
  {
    name: 'org index over HTTP: a 20 MB answer from the provider',
    expect: 'refused',
    run: async (kit) => {
      const host = await fakeHost(() => ({
        body: (res) => {
          const chunk = ' '.repeat(1 << 20);
          let i = 0;
          const more = () => {
            while (i < 20) {
              i++;
              if (!res.write(chunk)) return res.once('drain', more);
            }
            res.end('[]');
          };
          res.on('error', () => {});
          more();
        },
      }));
      const w = workspace(kit, 'workspace:\n  projects: []\n');
      const s = await kit.server(w.root, { env: { HUB_GITHUB_API_URL: host.base } });
      try {
        const r = await kit.request(s.base, 'POST', '/v3/ops/org/index', {
          body: { provider: 'github', org: 'acme' },
          timeoutMs: 60_000,
        });
        return kit.judgeHttp(r);
      } finally {
        await s.close();
        await host.close();
      }
    },
  },
  {
    name: 'org index: a 500,000-deep JSON answer, null entries and repositories named ../../etc or a/b',
    expect: 'refused',
    run: async (kit) => {
      const deep = `${'['.repeat(500_000)}${']'.repeat(500_000)}`;
      const host = await fakeHost(() => ({
        body: `[${deep},null,"x",${JSON.stringify(ghRepo('ok'))},${JSON.stringify({
          ...ghRepo('x'),
          name: '../../etc',
          full_name: 'acme/../../etc',
        })},${JSON.stringify({ ...ghRepo('y'), name: 'a/b', full_name: 'acme/a/b' })}]`,
      }));
      try {
        const w = workspace(kit, 'workspace:\n  projects: []\n');
        const r = await kit.hub(['org', 'index', 'github', 'acme', '--json'], {
          cwd: w.root,
          env: { HUB_GITHUB_API_URL: host.base },
        });
        if (r.code !== 0) return kit.judgeCli(r);
        const j = parse(r.stdout);
        const files = readdirSync(join(w.root, '.hub', 'org', 'github'));
        const stored = readFileSync(join(w.root, '.hub', 'org', 'github', 'acme.json'), 'utf8');
        if (j.repo_count !== 1 || stored.includes('../') || files.length !== 1)
          return { verdict: 'accepted', detail: `stored ${j.repo_count} repositories: ${files}` };
        return { verdict: 'refused', detail: `kept 1, left out ${j.rejected} malformed entries` };
      } finally {
        await host.close();
      }
    },
  },
  {
    name: 'org index: the provider echoes the token in a 401 body',
    expect: 'refused',
    run: async (kit) => {
      const host = await fakeHost((_p, _b, req) => ({
        status: 401,
        body: { message: `Bad credentials: ${req.headers.authorization}` },
      }));
      try {
        const w = workspace(kit, 'workspace:\n  projects: []\n');
        const r = await kit.hub(['org', 'index', 'github', 'acme', '--json'], {
          cwd: w.root,
          env: { HUB_GITHUB_API_URL: host.base, GITHUB_TOKEN: TOKEN },
        });
        if ((r.stdout + r.stderr).includes(TOKEN)) return { verdict: 'accepted', detail: 'token printed' };
        if (existsSync(join(w.root, '.hub', 'org')))
          return { verdict: 'accepted', detail: 'an index was stored' };
        return kit.judgeCli(r);
      } finally {
        await host.close();
      }
    },
  },
  {
    name: 'org index over HTTP: an org name that climbs out (../../etc)',
    expect: 'refused',
    run: async (kit) => {
      const w = workspace(kit, 'workspace:\n  projects: []\n');
      const s = await kit.server(w.root, { env: { HUB_GITHUB_API_URL: 'http://127.0.0.1:9' } });
      try {
        const r = await kit.request(s.base, 'POST', '/v3/ops/org/index', {
          body: { provider: 'github', org: '../../etc' },
        });
        if (existsSync(join(w.root, '.hub', 'org')))
          return { verdict: 'accepted', detail: 'a file was written' };
        return kit.judgeHttp(r);
      } finally {
        await s.close();
      }
    },
  },
  {
    name: 'hub_org_index over MCP: a GitLab group acme/../../x',
    expect: 'refused',
    run: async (kit) => {
      const w = workspace(kit, 'workspace:\n  projects: []\n');
      const m = kit.mcp(w.root, { env: { HUB_GITLAB_API_URL: 'http://127.0.0.1:9' } });
      try {
        await m.init();
        m.send(rpc(1, 'hub_org_index', { provider: 'gitlab', org: 'acme/../../x' }));
        return kit.judgeRpc(await m.next(15_000));
      } finally {
        m.close();
      }
    },
  },
  {
    name: 'repo materialize --project ../../outside (a clone outside the workspace)',
    expect: 'refused',
    run: async (kit) => {
      const dir = kit.tempDir();
      const u = upstream(dir, 'api');
      const w = workspace(kit, 'workspace:\n  projects: []\n');
      writeIndex(w.root, [{ name: 'api', clone_url: u.url }]);
      const r = await kit.hub(
        ['repo', 'materialize', 'github://acme/api', '--project', '../../outside', '--json'],
        {
          cwd: w.root,
        },
      );
      if (existsSync(join(w.dir, '..', 'outside')) || existsSync(join(w.dir, 'outside')))
        return { verdict: 'accepted', detail: 'cloned outside' };
      return kit.judgeCli(r);
    },
  },
  {
    name: 'repo materialize over HTTP: an indexed clone_url ext::sh -c touch <marker>',
    expect: 'refused',
    run: async (kit) => {
      const dir = kit.tempDir();
      const marker = join(dir, 'materialize-ext-ran');
      const w = workspace(kit, 'workspace:\n  projects: []\n');
      writeIndex(w.root, [{ name: 'api', clone_url: `ext::sh -c touch% ${marker}` }]);
      const s = await kit.server(w.root);
      try {
        const r = await kit.request(s.base, 'POST', '/v3/ops/org/materialize', {
          body: { repo: 'github://acme/api' },
        });
        if (existsSync(marker)) return { verdict: 'accepted', detail: 'the ext:: command ran' };
        if (readFileSync(join(w.root, '.hub.yml'), 'utf8').includes('ext::'))
          return { verdict: 'accepted', detail: 'the url was written to the manifest' };
        return kit.judgeHttp(r);
      } finally {
        await s.close();
      }
    },
  },
  {
    name: 'project sync --refresh-sources: a host lists a repository whose clone_url is ext::',
    expect: 'refused',
    run: async (kit) => {
      const dir = kit.tempDir();
      const marker = join(dir, 'source-ext-ran');
      const host = await fakeHost(() => ({
        body: [ghRepo('api', { clone_url: `ext::sh -c touch% ${marker}`, ssh_url: 'fd::3' })],
      }));
      try {
        const w = workspace(
          kit,
          'workspace:\n  projects:\n    - name: acme\n      sources:\n        - {provider: github, org: acme}\n      repos: []\n',
        );
        const r = await kit.hub(['project', 'sync', '--refresh-sources', '--json'], {
          cwd: w.root,
          env: { HUB_GITHUB_API_URL: host.base },
        });
        if (existsSync(marker)) return { verdict: 'accepted', detail: 'the ext:: command ran' };
        if (readFileSync(join(w.root, '.hub.yml'), 'utf8').includes('::'))
          return { verdict: 'accepted', detail: 'the url was written to the manifest' };
        if (r.code !== 0 && r.code !== 1) return kit.judgeCli(r);
        const j = parse(r.stdout);
        return {
          verdict: 'refused',
          detail: `not added (${j?.sources?.sources?.[0]?.filtered_count ?? '?'} filtered), nothing ran`,
        };
      } finally {
        await host.close();
      }
    },
  },
  {
    name: 'GET /v3/ops/discover: a local source path that climbs out of the workspace',
    expect: 'refused',
    run: async (kit) => {
      const w = workspace(kit, 'workspace:\n  projects:\n    - name: p\n      repos: []\n');
      const s = await kit.server(w.root);
      try {
        const r = await kit.request(s.base, 'GET', '/v3/ops/discover?provider=local&path=../..&project=p');
        if (r.status !== 200) return kit.judgeHttp(r);
        const found = r.json.repos?.length ?? 0;
        const err = r.json.errors?.[0];
        return found === 0 && err
          ? { verdict: 'refused', detail: `source error ${err.kind}: ${String(err.message).slice(0, 100)}` }
          : { verdict: 'accepted', detail: `${found} repositories outside listed` };
      } finally {
        await s.close();
      }
    },
  },
  {
    name: 'GET /v3/ops/org/search with limit=100000, stale_days=-1 and offset=-5',
    expect: 'refused',
    run: async (kit) => {
      const w = workspace(kit, 'workspace:\n  projects: []\n');
      const s = await kit.server(w.root);
      try {
        const rows = [];
        for (const q of ['limit=100000', 'stale_days=-1', 'offset=-5'])
          rows.push(await kit.request(s.base, 'GET', `/v3/ops/org/search?${q}`));
        const judged = rows.map((r) => kit.judgeHttp(r));
        const odd = judged.find((j) => j.verdict !== 'refused');
        return odd ?? { verdict: 'refused', detail: judged.map((j) => j.detail.slice(0, 40)).join(' | ') };
      } finally {
        await s.close();
      }
    },
  },
  {
    name: 'GET /v3/ops/graph: a cloned workspace ships .hub/org whose index names a repository ../../etc',
    expect: 'refused',
    run: async (kit) => {
      const { root } = kit.demo();
      writeIndex(root, [
        { name: '../../etc', clone_url: 'https://example.invalid/x.git' },
        { name: 'api', clone_url: 'https://example.invalid/api.git' },
      ]);
      const s = await kit.server(root);
      try {
        const r = await kit.request(s.base, 'GET', '/v3/ops/graph?include_inferred=false');
        if (r.status !== 200) return kit.judgeHttp(r);
        const external = r.json.nodes.filter((n) => n.presence === 'indexed');
        return external.length === 0
          ? { verdict: 'refused', detail: 'the shipped index read as absent' }
          : { verdict: 'accepted', detail: `external nodes: ${external.map((n) => n.id).join(', ')}` };
      } finally {
        await s.close();
      }
    },
  },
  {
    name: 'hub_graph_show over MCP: .hub/org/github is a link to an index outside the workspace',
    expect: 'refused',
    run: async (kit) => {
      const { root } = kit.demo();
      const outside = kit.tempDir('hub-hostile-org-out-');
      writeIndex(outside, [{ name: 'leaked', clone_url: 'https://example.invalid/leaked.git' }]);
      mkdirSync(join(root, '.hub', 'org'), { recursive: true });
      symlinkSync(join(outside, '.hub', 'org', 'github'), join(root, '.hub', 'org', 'github'));
      const m = kit.mcp(root);
      try {
        await m.init();
        m.send(rpc(1, 'hub_graph_show', { include_inferred: false }));
        const msg = await m.next(30_000);
        if (!msg?.result || msg.result.isError) return kit.judgeRpc(msg);
        return JSON.stringify(msg.result.structuredContent).includes('leaked')
          ? { verdict: 'accepted', detail: 'the index outside was read' }
          : { verdict: 'refused', detail: 'the linked index was not read' };
      } finally {
        m.close();
      }
    },
  },
];
