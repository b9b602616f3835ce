import { existsSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { type Catalog, type CatalogRepo, type Checkouts, checkoutsOf } from '../catalog/index.js';
import {
  childProcess,
  HubError,
  RefusedError,
  realpathOrUndefined,
  ValidationError,
} from '../infra/index.js';

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
 * Starts the editor on `dir` as a detached process without a shell, and resolves once it has started (the editor
 * keeps running on its own). A program that cannot start is an error naming it.
 */
export function launchEditor(
  editor: string,
  dir: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<{ command: string; args: string[]; pid: number | undefined }> {
  const [command, ...rest] = editorArgv(editor);
  const args = [...rest, dir];
  return new Promise((resolvePromise, reject) => {
    const child = childProcess().spawn(command!, args, {
      shell: false,
      detached: true,
      stdio: 'ignore',
      windowsHide: true,
      env: env as NodeJS.ProcessEnv,
    });
    child.once('error', (err: NodeJS.ErrnoException) => {
      reject(
        new HubError(
          'internal',
          `cannot run editor '${command}': ${err.code ?? err.message}; set config.editor`,
          {
            editor: command,
            rule: 'editor_runs',
          },
        ),
      );
    });
    child.once('spawn', () => {
      child.unref();
      resolvePromise({ command: command!, args, pid: child.pid });
    });
  });
}
