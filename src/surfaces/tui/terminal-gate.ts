/** The CLI-only commands for people at a terminal; each names what an agent runs instead. */
export const TERMINAL_COMMANDS = {
  nav: {
    what: 'an interactive picker',
    instead:
      'hub workspace repo list --json to find a repository, then hub repo open <path> (or hub repo resolve <ref> --json)',
  },
  tui: {
    what: 'an interactive terminal hub',
    instead:
      'the commands it runs, with --json (hub workspace list, hub search, hub workspace grep, hub config validate, hub appconfig patch), or the MCP server (hub mcp serve)',
  },
} as const;

/** Agent mode as every other part of hub reads it (ops/create-context.ts). */
const AGENT_MODE = /^(1|true|yes)$/i;

export type TerminalCommand = keyof typeof TERMINAL_COMMANDS;

export interface TerminalFacts {
  env: Readonly<Record<string, string | undefined>>;
  stdinTty: boolean;
  stdoutTty: boolean;
  json: boolean;
}

/**
 * Why `command` may not start here, in one line that names what an agent should run instead; undefined when a
 * person is at a terminal. Agent mode, --json, and a stdin or stdout that is not a terminal each refuse: an
 * agent or a script would otherwise wait forever on a prompt no one sees.
 */
export function terminalRefusal(command: TerminalCommand, facts: TerminalFacts): string | undefined {
  const why = facts.json
    ? '--json asks for machine output'
    : AGENT_MODE.test(facts.env.HUB_AGENT_MODE ?? '')
      ? `HUB_AGENT_MODE=${facts.env.HUB_AGENT_MODE}`
      : !facts.stdinTty
        ? 'standard input is not a terminal'
        : !facts.stdoutTty
          ? 'standard output is not a terminal'
          : undefined;
  if (!why) return undefined;
  const c = TERMINAL_COMMANDS[command];
  return `hub ${command} is ${c.what} for people at a terminal and will not start: ${why}; agents use ${c.instead}`;
}
