import { existsSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { type Catalog, type CatalogRepo, type Checkouts, checkoutsOf } from '../catalog/index.js';
import { childProcess, RefusedError, realpathOrUndefined, ValidationError } from '../infra/index.js';

/**
 * The managed repository whose checkout is exactly `path`, compared by real path (so `..`, symlinks and a
 * trailing slash cannot smuggle in another directory). Anything else is refused: a relative path (400), a path
 * that does not exist on disk, one that is not the root of a repository of the manifest, or a repository that
 * lies outside the workspace without the user's leave (403).
 */
export function managedRepoAt(
  catalog: Catalog,
  path: string,
  checkouts: Checkouts = checkoutsOf(catalog),
): { repo: CatalogRepo; real: string } {
  if (!isAbsolute(path))
    throw new ValidationError(`path: '${path}' is not absolute; pass the absolute path of a repository`, {
      field: 'path',
      value: path,
      rule: 'absolute',
    });
  const real = realpathOrUndefined(path);
  if (!real)
    throw new RefusedError(`cannot open '${path}': it does not exist on disk`, {
      field: 'path',
      value: path,
      rule: 'exists_on_disk',
    });
  for (const repo of catalog.repos) {
    if (realpathOrUndefined(repo.root) !== real) continue;
    checkouts.refuseOutside(repo);
    return { repo, real };
  }
  throw new RefusedError(`cannot open '${path}': it is not a managed repository of this workspace`, {
    field: 'path',
    value: path,
    rule: 'managed_repository',
  });
}

/**
 * The argv of `config.editor`: an existing file path is the program itself (spaces and all); otherwise the words
 * of the setting (`code --reuse-window`). No shell ever sees it.
 */
export function editorArgv(editor: string): string[] {
  const trimmed = editor.trim();
  if (trimmed === '')
    throw new ValidationError('config.editor is empty', { field: 'config.editor', rule: 'required' });
  if (isAbsolute(trimmed) && existsSync(trimmed)) return [trimmed];
  return trimmed.split(/\s+/);
}

/**
 * Starts the editor on `dir` without a shell. Detached (the default), it resolves once the editor has started and
 * keeps running on its own. With `wait` (a person at a terminal: `hub nav`), the editor shares this terminal, so a
 * terminal editor (vim, nano) works, and it resolves with the editor's exit code once it ends. A program that
 * cannot start is the user's setting, not a fault of hub: a refusal (409) naming `config.editor`, the program, and
 * `configFile`, where the user's own setting goes.
 */
export function launchEditor(
  editor: string,
  dir: string,
  env: Readonly<Record<string, string | undefined>>,
  opts: { configFile?: string; wait?: boolean } = {},
): Promise<{ command: string; args: string[]; pid: number | undefined; exitCode?: number }> {
  const [command, ...rest] = editorArgv(editor);
  const args = [...rest, dir];
  return new Promise((resolvePromise, reject) => {
    const child = childProcess().spawn(command!, args, {
      shell: false,
      detached: !opts.wait,
      stdio: opts.wait ? 'inherit' : 'ignore',
      windowsHide: true,
      env: env as NodeJS.ProcessEnv,
    });
    child.once('error', (err: NodeJS.ErrnoException) => {
      reject(editorRefusal(command!, err, opts.configFile));
    });
    child.once('spawn', () => {
      if (opts.wait) return;
      child.unref();
      resolvePromise({ command: command!, args, pid: child.pid });
    });
    if (opts.wait)
      child.once('exit', (code, signal) =>
        resolvePromise({ command: command!, args, pid: child.pid, exitCode: code ?? (signal ? 128 : 1) }),
      );
  });
}

function editorRefusal(
  command: string,
  err: NodeJS.ErrnoException,
  configFile: string | undefined,
): RefusedError {
  const missing = err.code === 'ENOENT';
  const why = missing
    ? isAbsolute(command)
      ? 'no such program'
      : 'not installed, or not on the PATH of the hub process'
    : `it cannot be run (${err.code ?? err.message})`;
  const where = configFile ? ` in ${configFile}` : ' in your user config';
  return new RefusedError(
    `cannot run the editor '${command}' (config.editor): ${why}. Set config.editor${where} to your editor's ` +
      'command (cursor, zed, a full path...; a hub.config.yaml in the workspace may not set it), or use the ' +
      'editor links (vscode://, cursor://, zed://, idea://...), which need no config.editor',
    {
      field: 'config.editor',
      editor: command,
      ...(configFile ? { config_file: configFile } : {}),
      errno: err.code ?? null,
      rule: missing ? 'editor_installed' : 'editor_runs',
    },
    409,
  );
}
