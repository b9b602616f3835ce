import type { GlobalOptions } from '../cli/option-value.js';
import { reportError } from '../cli/output.js';
import { runNav } from './nav.js';
import { createOpRunner } from './op-runner.js';
import { loadPrompts, PromptCancelled } from './prompts.js';
import { runTui } from './tui.js';
import { runWizard } from './wizard.js';

/** Exit code of a pick a person cancelled (Esc or Ctrl-C), as fzf gives. */
export const CANCELLED_EXIT = 130;

const say = (line: string) => void process.stderr.write(`${line}\n`);

async function guarded(run: () => Promise<number>): Promise<number> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof PromptCancelled) {
      say(`hub: ${err.message}`);
      return CANCELLED_EXIT;
    }
    return await reportError(err, false, process.env.HUB_DEBUG === '1');
  }
}

/** `hub nav [-p PROJECT] [--repo NAME]`; the exit code. */
export async function navCommand(
  flags: { project?: string; repo?: string },
  globals: GlobalOptions,
): Promise<number> {
  return await guarded(async () => {
    const [p, ops] = await Promise.all([
      loadPrompts(),
      createOpRunner(globals, { cwd: process.cwd(), env: process.env, log: say }),
    ]);
    return await runNav(p, ops, flags, process.env, say);
  });
}

/** `hub tui [--wizard]`; the exit code. */
export async function tuiCommand(flags: { wizard?: boolean }, globals: GlobalOptions): Promise<number> {
  return await guarded(async () => {
    const [p, ops] = await Promise.all([
      loadPrompts(),
      createOpRunner(globals, { cwd: process.cwd(), env: process.env, log: say }),
    ]);
    if (flags.wizard) return await runWizard(p, ops, say);
    return await runTui(p, ops, say);
  });
}
