/** Global options that take a value, so the word after them is not a command. */
export const GLOBAL_VALUE_OPTIONS: ReadonlySet<string> = new Set([
  '-c',
  '--config-path',
  '--definition',
  '--appconfig',
]);

/** The first command word of argv, after the global options (kept dependency-free: the CLI's first module uses it). */
export function commandWord(argv: readonly string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (GLOBAL_VALUE_OPTIONS.has(a)) i++;
    else if (!a.startsWith('-')) return a;
  }
  return undefined;
}
