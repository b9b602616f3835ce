import type { VendorId } from '../vendors.js';
import { commandLine } from './shell.js';

/** How to start an installed agent (or skill) for a task, with where the vendor documents it. */
export interface LaunchHint {
  vendor: VendorId;
  /** `cli`: a command line of the vendor's own CLI; `ide`: steps in the editor (the vendor has no CLI for it). */
  kind: 'cli' | 'ide';
  /** The command line (kind cli), run in `cwd`; absent for kind ide. */
  command?: string;
  /** Folder to run it in (the repository checkout), when known. */
  cwd?: string;
  /** What to do, in words (always present: the one hint for kind ide, the explanation for kind cli). */
  text: string;
  /** Where the vendor documents the command or the steps (a citation without a link). */
  source: string;
}

export interface LaunchInput {
  /** The agent's name: the template id (agent file name, skill folder name). */
  name: string;
  /** What the agent is asked to do, already including the repository label. */
  prompt: string;
  cwd?: string;
}

type HintOf = (i: LaunchInput) => Omit<LaunchHint, 'vendor' | 'cwd'>;

/**
 * One hint per vendor. Only flags the vendor documents are used (docs/agents.md, "Dispatch plans", lists each
 * source); where no flag selects an agent or skill, the agent is named in the prompt text the way the vendor's
 * documentation says a user names it, and where the vendor has no CLI the hint is editor steps.
 */
const HINTS: Record<VendorId, HintOf> = {
  claude_code: ({ name, prompt }) => ({
    kind: 'cli',
    command: commandLine(['claude', '--agent', name, prompt]),
    text: `Starts Claude Code with the ${name} agent as the session's agent and the task as the first prompt; inside a running session, ask for the ${name} subagent by name instead.`,
    source:
      'Claude Code documentation, "CLI reference" (--agent: the agent for the current session; claude "query" starts a session with a first prompt) and "Subagents" (explicit invocation by name)',
  }),
  cursor: ({ name, prompt }) => ({
    kind: 'cli',
    command: commandLine(['agent', `Use the ${name} subagent. ${prompt}`]),
    text: `Cursor CLI with the task as the first prompt; no flag selects a subagent, so the prompt names it. In the editor, open the Agent chat and ask for the ${name} subagent the same way.`,
    source:
      'Cursor documentation, "Cursor CLI" (agent "prompt" starts an interactive session with a first prompt) and "Subagents" (project .cursor/agents, user ~/.cursor/agents)',
  }),
  github_copilot: ({ name, prompt }) => ({
    kind: 'cli',
    command: commandLine(['copilot', '--agent', name, '--prompt', prompt]),
    text: `Copilot CLI with the ${name} custom agent (the agent file name without .agent.md); in VS Code, pick ${name} in the Copilot Chat agent picker.`,
    source:
      'GitHub Docs, "Creating and using custom agents for GitHub Copilot CLI" (copilot --agent <name> --prompt "...")',
  }),
  opencode: ({ name, prompt }) => ({
    kind: 'cli',
    command: commandLine(['opencode', '--prompt', `@${name} ${prompt}`]),
    text: `OpenCode's terminal UI with the prompt filled in; ${name} is a subagent, invoked by @-mentioning it.`,
    source:
      'OpenCode documentation, "CLI" (--prompt for the TUI) and "Agents" (subagents are invoked manually by @ mentioning them)',
  }),
  hermes: ({ name, prompt }) => ({
    kind: 'cli',
    command: commandLine(['hermes', 'chat', '-s', name, '-q', prompt]),
    text: `One Hermes query with the ${name} skill preloaded; drop -q to start an interactive session with it.`,
    source: 'Hermes Agent documentation, "CLI Interface" (-s preloads skills; chat -q runs a single query)',
  }),
  openclaw: ({ name, prompt }) => ({
    kind: 'cli',
    command: commandLine([
      'openclaw',
      'agent',
      '--agent',
      '<openclaw-agent-id>',
      '--message',
      `Use the ${name} skill. ${prompt}`,
    ]),
    text: `One OpenClaw agent turn; replace <openclaw-agent-id> with your configured agent. OpenClaw loads the ${name} skill from its skills folders and the message asks for it by name.`,
    source:
      'OpenClaw documentation, "openclaw agent" (--agent <id>, --message <text>) and "Skills" (skill folders and precedence)',
  }),
  windsurf: ({ name, prompt }) => ({
    kind: 'ide',
    text: `Open Cascade in Windsurf (Cmd/Ctrl+L) and send: @${name} ${prompt}`,
    source:
      'Windsurf documentation, "Skills" (a skill loads when Cascade invokes it or you @mention it) and "Cascade" (Cmd/Ctrl+L)',
  }),
  codex: ({ name, prompt }) => ({
    kind: 'cli',
    command: commandLine(['codex', `$${name} ${prompt}`]),
    text: `Codex with the task as the first prompt; $${name} mentions the skill explicitly.`,
    source:
      'Codex documentation, "Agent Skills" (explicit invocation: type $ to mention a skill) and "Codex CLI" (codex "prompt")',
  }),
};

/** The launch hint of one vendor for an agent and a prompt. */
export function launchHint(vendor: VendorId, input: LaunchInput): LaunchHint {
  const h = HINTS[vendor](input);
  return { vendor, ...h, ...(input.cwd && h.kind === 'cli' ? { cwd: input.cwd } : {}) };
}
