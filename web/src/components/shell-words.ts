// Command lines the UI shows for copying into a terminal: each word quoted for a POSIX shell only when it needs it,
// so what is copied runs as shown (a path with spaces, a task with quotes).

/** One shell word: bare when no shell treats its characters specially, else single-quoted (`'` as `'\''`). */
export function shellWord(value: string): string {
  return /^[A-Za-z0-9_./:=@%+,-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

/** A command line from its words (`undefined` and `false` left out), each quoted as needed. */
export function commandLine(words: ReadonlyArray<string | undefined | false>): string {
  return words
    .filter((w): w is string => typeof w === 'string')
    .map(shellWord)
    .join(' ');
}

/** `command` to run in `folder`: `cd <folder> && command`, so it works from whatever folder it is pasted in. */
export function inFolder(command: string, folder: string | null | undefined): string {
  return folder ? `cd ${shellWord(folder)} && ${command}` : command;
}
