// Hostile input for dispatch plans, agent profiles and prompts (issue 14): template ids that climb out of the
// templates folder (`../x`, encoded in the HTTP path), unknown projects, repositories, components and vendors,
// huge and multi-line task texts, task texts full of shell syntax (taken, but every printed command must keep
// them one quoted word), hostile agent ids, a --root elsewhere, prompt names and templates that climb. A correct
// hub refuses the bad inputs cleanly (no crash, no hang) and never lets a task text escape its quotes.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'shell-quote';

const PLAN = ['agent', 'dispatch-plan'];
const TARGET = ['--project', 'platform', '--repo', 'identity'];

const rpc = (id, name, args) =>
  `${JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } })}\n`;

/** Every spawned hub gets a temporary home: a dispatch plan reads HOME for user-scope installs. */
const homeOf = (kit) => {
  const d = kit.tempDir('hub-hostile-home-');
  return { HOME: join(d, 'home'), XDG_CONFIG_HOME: join(d, 'xdg') };
};

const cli = (name, args, { expect = 'refused', check } = {}) => ({
  name: `CLI ${name}`,
  expect,
  async run(kit) {
    const { manifestPath } = kit.demo();
    const r = await kit.hub(['-c', manifestPath, ...args, '--json'], { env: homeOf(kit), timeoutMs: 60_000 });
    const judged = kit.judgeCli(r);
    if (judged.verdict === 'accepted' && check) return check(JSON.parse(r.stdout)) ?? judged;
    return judged;
  },
});

const http = (name, path) => ({
  name: `HTTP ${name}`,
  expect: 'refused',
  async run(kit) {
    const { root } = kit.demo();
    const s = await kit.server(root, { env: homeOf(kit) });
    try {
      const judged = kit.judgeHttp(await kit.request(s.base, 'GET', path, { timeoutMs: 30_000 }));
      return s.alive() ? judged : { verdict: 'crash', detail: 'server died' };
    } finally {
      await s.close();
    }
  },
});

const mcp = (name, tool, args) => ({
  name: `MCP ${name}`,
  expect: 'refused',
  async run(kit) {
    const { root } = kit.demo();
    const m = kit.mcp(root, { env: homeOf(kit) });
    try {
      await m.init();
      m.send(rpc(1, tool, args));
      return kit.judgeRpc(await m.next(30_000));
    } finally {
      m.close();
    }
  },
});

/** A task text a shell would run if it escaped its quotes. */
const SHELL_TASK = `it's $(touch /tmp/hub-pwned) \`id\` && rm -rf ~ ; echo "x" | sh #`;

/** Every printed command must parse (as a shell would) with the task text whole inside one word. */
function quotedEverywhere(plan) {
  const commands = [
    plan.handoff.prompt_command,
    ...Object.values(plan.launch)
      .map((h) => h.command)
      .filter(Boolean),
  ];
  for (const c of commands) {
    const words = parse(c);
    if (words.some((w) => typeof w !== 'string'))
      return { verdict: 'crash', detail: `shell operator escaped its quotes: ${c.slice(0, 120)}` };
    if (!words.some((w) => w.includes(SHELL_TASK)))
      return { verdict: 'crash', detail: `task text not one word in: ${c.slice(0, 120)}` };
  }
  return { verdict: 'accepted', detail: `${commands.length} commands keep the task one quoted word` };
}

/** A cloned manifest whose agent_profile names a skill that climbs out of the skills folder (into ~/.ssh). */
const climbingSkill = {
  name: 'CLI dispatch-plan on a manifest whose profile skill is ../../.ssh/id_rsa',
  expect: 'refused',
  async run(kit) {
    const { manifestPath } = kit.demo();
    const text = readFileSync(manifestPath, 'utf8').replace(
      'skills: [code-review]',
      'skills: [../../.ssh/id_rsa]',
    );
    writeFileSync(manifestPath, text);
    const args = ['-c', manifestPath, ...PLAN, 'repo-implementer', '--vendor', 'codex', ...TARGET, '--json'];
    return kit.judgeCli(await kit.hub(args, { env: homeOf(kit) }));
  },
};

export const cases = [
  climbingSkill,
  cli('dispatch-plan of template ../x', [...PLAN, '../x', '--vendor', 'codex', ...TARGET]),
  cli('dispatch-plan of template ..', [...PLAN, '..', '--vendor', 'codex', ...TARGET]),
  cli('dispatch-plan of an unknown template', [...PLAN, 'no-such-agent', '--vendor', 'codex', ...TARGET]),
  cli('dispatch-plan for an unknown vendor', [...PLAN, 'repo-implementer', '--vendor', 'vim', ...TARGET]),
  cli('dispatch-plan for an unknown project', [
    ...PLAN,
    'repo-implementer',
    '--vendor',
    'codex',
    '-p',
    'nope',
    '-n',
    'x',
  ]),
  cli('dispatch-plan for an unknown repository', [
    ...PLAN,
    'repo-implementer',
    '--vendor',
    'codex',
    '-p',
    'platform',
    '-n',
    'nope',
  ]),
  cli('dispatch-plan for component ../../etc', [
    ...PLAN,
    'repo-implementer',
    '--vendor',
    'codex',
    ...TARGET,
    '--component',
    '../../etc',
  ]),
  cli('dispatch-plan with a 100,000-character task', [
    ...PLAN,
    'repo-implementer',
    '--vendor',
    'codex',
    ...TARGET,
    '--task',
    'x'.repeat(100_000),
  ]),
  cli('dispatch-plan with a multi-line task', [
    ...PLAN,
    'repo-implementer',
    '--vendor',
    'codex',
    ...TARGET,
    '--task',
    'a\nrm -rf ~',
  ]),
  cli('dispatch-plan with agent id $(id)', [
    ...PLAN,
    'repo-implementer',
    '--vendor',
    'codex',
    ...TARGET,
    '--agent-id',
    '$(id)',
  ]),
  cli('dispatch-plan with --root /', [
    ...PLAN,
    'repo-implementer',
    '--vendor',
    'codex',
    ...TARGET,
    '--root',
    '/',
  ]),
  cli(
    'dispatch-plan with a task full of shell syntax (taken, quoted in every command)',
    [...PLAN, 'repo-implementer', '--vendor', 'claude_code', ...TARGET, '--task', SHELL_TASK],
    { expect: 'accepted', check: quotedEverywhere },
  ),
  cli('profile show for an unknown repository', [
    'agent',
    'profile',
    'show',
    '-p',
    'platform',
    '-n',
    '../identity',
  ]),
  cli('prompt show ../../etc/passwd', ['prompt', 'show', '../../etc/passwd']),
  cli('prompt show repo-handoff with template ../x', [
    'prompt',
    'show',
    'repo-handoff',
    ...TARGET,
    '--template',
    '../x',
  ]),
  cli('prompt show task-dispatch for node ../x', ['prompt', 'show', 'task-dispatch', '--task-id', '../x']),
  http(
    'dispatch-plan of template ..%2Fx',
    '/v3/agents/templates/..%2Fx/dispatch-plan?vendor=codex&project=platform&repo=identity',
  ),
  http(
    'dispatch-plan for an unknown vendor',
    '/v3/agents/templates/repo-implementer/dispatch-plan?vendor=x&project=platform&repo=identity',
  ),
  http(
    'dispatch-plan for an unknown repository',
    '/v3/agents/templates/repo-implementer/dispatch-plan?vendor=codex&project=platform&repo=nope',
  ),
  http(
    'dispatch-plan with a 20,000-character task',
    `/v3/agents/templates/repo-implementer/dispatch-plan?vendor=codex&project=platform&repo=identity&task=${'y'.repeat(20_000)}`,
  ),
  http(
    'dispatch-plan with root=/',
    '/v3/agents/templates/repo-implementer/dispatch-plan?vendor=codex&project=platform&repo=identity&root=%2F',
  ),
  http('prompt ..%2F..%2Fetc', '/v3/agents/prompts/..%2F..%2Fetc'),
  mcp('dispatch-plan of template ../x', 'hub_agent_dispatch_plan', {
    id: '../x',
    vendor: 'codex',
    project: 'platform',
    repo: 'identity',
  }),
  mcp('dispatch-plan with a 1 MB task', 'hub_agent_dispatch_plan', {
    id: 'repo-implementer',
    vendor: 'codex',
    project: 'platform',
    repo: 'identity',
    task: 'z'.repeat(1024 * 1024),
  }),
  mcp('dispatch-plan for an unknown vendor', 'hub_agent_dispatch_plan', {
    id: 'repo-implementer',
    vendor: '',
  }),
  mcp('prompt show with template ../x', 'hub_prompt_show', {
    name: 'repo-handoff',
    project: 'platform',
    repo: 'identity',
    template: '../x',
  }),
];
