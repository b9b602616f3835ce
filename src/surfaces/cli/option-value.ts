import type { OptionSpec } from '../../ops/index.js';

/** The input value of an option as typed: JSON options parse when they can; the schema coerces the rest. */
export function optionValue(spec: OptionSpec, raw: unknown): unknown {
  if (spec.kind === 'json' && typeof raw === 'string') {
    try {
      return JSON.parse(raw);
    } catch {
      return raw;
    }
  }
  return raw;
}

/** The global options every command takes, as both parsers report them. */
export interface GlobalOptions {
  configPath?: string;
  definition?: string;
  appconfig?: string;
  json?: boolean;
}
