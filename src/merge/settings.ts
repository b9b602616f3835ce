import { checkGlob } from '../acl/index.js';
import { type CommandSpec, commandArgv } from './commands.js';

/** `merge.*` of the application config, as the schema gives it. */
export interface MergeConfig {
  validators: ReadonlyArray<CommandSpec | { name?: string; command: CommandSpec; timeout_ms?: number }>;
  regenerate: ReadonlyArray<{
    pattern?: string;
    patterns?: readonly string[];
    command: CommandSpec;
    timeout_ms?: number;
  }>;
  timeout_ms: number;
}

/** One command ready to run: its argv (no shell), name and timeout. */
export interface MergeCommand {
  name: string;
  argv: string[];
  timeoutMs: number;
}

export interface RegenerateRule extends MergeCommand {
  patterns: string[];
}

/** The validators and regenerate rules of the config, each command split and each glob checked, once per call. */
export interface MergeSettings {
  validators: MergeCommand[];
  regenerate: RegenerateRule[];
}

const DEFAULT_TIMEOUT_MS = 600_000;

/** Reads `merge.*`: a bad command or glob is a ValidationError naming its config key. */
export function mergeSettings(config: MergeConfig | undefined): MergeSettings {
  const timeout = config?.timeout_ms ?? DEFAULT_TIMEOUT_MS;
  const validators = (config?.validators ?? []).map((v, i) => {
    const field = `merge.validators[${i}]`;
    const spec = typeof v === 'string' || Array.isArray(v) ? { command: v as CommandSpec } : v;
    const s = spec as { name?: string; command: CommandSpec; timeout_ms?: number };
    const argv = commandArgv(s.command, field);
    return { name: s.name ?? argv.join(' '), argv, timeoutMs: s.timeout_ms ?? timeout };
  });
  const regenerate = (config?.regenerate ?? []).map((r, i) => {
    const field = `merge.regenerate[${i}]`;
    const patterns = [...(r.pattern === undefined ? [] : [r.pattern]), ...(r.patterns ?? [])];
    for (const p of patterns) checkGlob(p, `${field}.pattern`);
    const argv = commandArgv(r.command, `${field}.command`);
    return { name: argv.join(' '), argv, patterns, timeoutMs: r.timeout_ms ?? timeout };
  });
  return { validators, regenerate };
}
