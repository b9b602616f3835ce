/**
 * The text of the claim guard's block in a git pre-commit hook: pure string work, so that merging with a user's
 * hook and removing the block again can be tested without git.
 */

/** A POSIX shell word that is exactly `s` (single quotes; a `'` inside becomes `'\''`). */
export function shQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

const BEGIN = '# >>> hub claim guard';
const END = '# <<< hub claim guard';

/** The marker lines of one repository's block (a shared hooks folder may hold the blocks of several). */
export function blockMarkers(repository: string): { begin: string; end: string } {
  return { begin: `${BEGIN} ${repository} >>>`, end: `${END} ${repository} <<<` };
}

export interface HookBlockInput {
  repository: string;
  /** Absolute path of the manifest, so the hook works from any worktree. */
  manifest: string;
  /** The hub command recorded at install time (absolute node and launcher), tried before `hub` on PATH. */
  hubCommand: readonly string[];
  strict: boolean;
}

/**
 * The block: finds the agent (HUB_AGENT_ID, else `git config hub.agentId`), runs `hub claim guard check` with
 * the recorded command when it still exists, else `hub` from PATH, else says so and lets the commit through.
 * Strict mode stops the commit when the check fails; warn mode never does. Every value is single-quoted.
 */
export function hookBlock(input: HookBlockInput): string {
  const { begin, end } = blockMarkers(input.repository);
  const args = ['-c', input.manifest, 'claim', 'guard', 'check', '--repository', input.repository]
    .map(shQuote)
    .join(' ');
  const strict = input.strict ? ' --strict' : '';
  const onFail = input.strict ? 'exit 1' : ':';
  const recorded = input.hubCommand.map(shQuote).join(' ');
  const launcher = input.hubCommand[input.hubCommand.length - 1] ?? '';
  return [
    begin,
    '# Written by `hub claim guard install`; `hub claim guard uninstall` removes it. Edits inside are replaced.',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell parameter expansion, not a JS placeholder.
    'hub_guard_agent="${HUB_AGENT_ID:-$(git config --get hub.agentId 2>/dev/null || true)}"',
    `if [ -f ${shQuote(launcher)} ]; then`,
    `  ${recorded} ${args}${strict} \${hub_guard_agent:+--agent-id "$hub_guard_agent"} || ${onFail}`,
    'elif command -v hub >/dev/null 2>&1; then',
    `  hub ${args}${strict} \${hub_guard_agent:+--agent-id "$hub_guard_agent"} || ${onFail}`,
    'else',
    `  echo 'hub claim guard: hub is not installed here; claims were not checked' >&2`,
    'fi',
    end,
  ].join('\n');
}

/** Shells a hook may be written in for the block to run (it is POSIX sh). */
const SHELL_SHEBANG = /^#!\s*(?:\/usr)?\/bin\/(?:env\s+)?(?:sh|bash|dash|ksh|zsh)\b/;

export type MergeResult = { ok: true; text: string; replaced: boolean } | { ok: false; reason: string };

/** `text` without the block of `repository` (and whether it had one). */
export function removeBlock(text: string, repository: string): { text: string; removed: boolean } {
  const { begin, end } = blockMarkers(repository);
  const lines = text.split('\n');
  const out: string[] = [];
  let inside = false;
  let removed = false;
  for (const line of lines) {
    if (!inside && line === begin) {
      inside = true;
      removed = true;
      continue;
    }
    if (inside) {
      if (line === end) inside = false;
      continue;
    }
    out.push(line);
  }
  return { text: out.join('\n'), removed };
}

/**
 * The hook with the block in it: a new hook is `#!/bin/sh` plus the block; an existing shell hook keeps every
 * line of its own, with the block (replacing an earlier one of the same repository) right after the shebang,
 * so it runs before the user's lines can `exit`. A hook in another language is not edited.
 */
export function mergeHook(existing: string | undefined, block: string, repository: string): MergeResult {
  if (existing === undefined || existing.trim() === '')
    return { ok: true, text: `#!/bin/sh\n${block}\n`, replaced: false };
  const { text, removed } = removeBlock(existing, repository);
  const lines = text.split('\n');
  if (!SHELL_SHEBANG.test(lines[0] ?? ''))
    return {
      ok: false,
      reason: `the existing hook does not start with a POSIX shell line (#!/bin/sh or bash) but '${(lines[0] ?? '').slice(0, 80)}'`,
    };
  return { ok: true, text: [lines[0], block, ...lines.slice(1)].join('\n'), replaced: removed };
}
