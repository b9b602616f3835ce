/**
 * A POSIX shell word: bare when it holds only characters no shell treats specially, else single-quoted (with `'`
 * as `'\''`), so a task text can never expand, glob or end the command it is pasted into.
 */
export function shellWord(value: string): string {
  return /^[A-Za-z0-9_./:=@%+,-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

/** A command line from its words, each quoted as needed. */
export function commandLine(words: ReadonlyArray<string | undefined | false>): string {
  return words
    .filter((w): w is string => typeof w === 'string')
    .map(shellWord)
    .join(' ');
}
