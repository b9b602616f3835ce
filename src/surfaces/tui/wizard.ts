import { HubError } from '../../infra/index.js';
import { ensureAppConfigFile, WORKSPACE_CONFIG_RULE } from '../../model/index.js';
import { type AppInfo, userSettingPath } from './nav.js';
import type { OpRunner } from './op-runner.js';
import { ask, type Prompts } from './prompts.js';

/** One setting the wizard changes, and the file `appconfig patch` writes it to. */
interface Change {
  path: string;
  from: string;
  to: string;
  /** A file the user names for this key (their own config), when the workspace file may not hold it. */
  appconfig?: string;
  file: string;
}

/**
 * Where `appconfig patch` would write `path` = `value`: its usual file, or, for a key only the user's own config
 * may set (config.editor) when that file is in the workspace, the user config file. Asked of the operation
 * itself (a preview, never a write), so the wizard follows the same rules as the command.
 */
async function targetOf(ops: OpRunner, app: AppInfo, path: string, value: string): Promise<Change> {
  const base = { path, from: '', to: value };
  try {
    const { result } = await ops.run<{ path: string }>('appconfig.patch', { op: 'set', path, value });
    return { ...base, file: result.path };
  } catch (err) {
    if (!(err instanceof HubError) || err.details?.rule !== WORKSPACE_CONFIG_RULE) throw err;
    const own = userSettingPath(app, process.env);
    return { ...base, file: own, appconfig: own };
  }
}

/**
 * `hub tui --wizard`: asks for the settings a person at a terminal cares about, shows what changes where, and
 * writes them with `appconfig.patch` (comments kept, atomic), then validates. Returns the exit code.
 */
export async function runWizard(p: Prompts, ops: OpRunner, say: (line: string) => void): Promise<number> {
  const { result: app } = await ops.run<AppInfo>('appconfig.info');
  say(`Application config in effect: ${app.path ?? '(bundled defaults)'} (${app.source})`);
  const editor = await ask((ctx) =>
    p.input(
      {
        message: 'Editor command (config.editor; nav and open run it without a shell)',
        default: app.config.config.editor,
        validate: (v) => v.trim() !== '' || 'an editor command is required',
      },
      ctx,
    ),
  );
  const hidden = await ask((ctx) =>
    p.confirm(
      {
        message:
          'Hide dot-named repositories and folders in pickers and the UI (workspace.ui_ignore_hidden)?',
        default: app.config.workspace.ui_ignore_hidden,
      },
      ctx,
    ),
  );
  const wanted: Array<[string, string, string]> = [
    ['workspace.ui_ignore_hidden', String(app.config.workspace.ui_ignore_hidden), String(hidden)],
    ['config.editor', app.config.config.editor, editor.trim()],
  ];
  const changes: Change[] = [];
  for (const [path, from, to] of wanted)
    if (from !== to) changes.push({ ...(await targetOf(ops, app, path, to)), from });
  if (changes.length === 0) {
    say('Nothing to change.');
    return 0;
  }
  for (const c of changes) say(`  ${c.path}: ${c.from} -> ${c.to}  (${c.file})`);
  const go = await ask((ctx) =>
    p.confirm({ message: `Write ${changes.length} setting(s)?`, default: true }, ctx),
  );
  if (!go) {
    say('Nothing written.');
    return 0;
  }
  for (const c of changes) {
    // The user's own config may not exist yet: an empty one (mode 0600) for the patch to fill.
    if (c.appconfig) ensureAppConfigFile(c.appconfig);
    const { result } = await ops.run<{ path: string }>(
      'appconfig.patch',
      { op: 'set', path: c.path, value: c.to, save: true },
      c.appconfig ? { appconfig: c.appconfig } : {},
    );
    say(`saved ${c.path} in ${result.path}`);
  }
  const check = await ops.run('appconfig.validate');
  say(check.text);
  return check.exit;
}
