import { emitKeypressEvents } from 'node:readline';

/** A person left a prompt: Esc or Ctrl-C. */
export class PromptCancelled extends Error {
  constructor(readonly key: 'escape' | 'interrupt') {
    super(key === 'escape' ? 'cancelled (Esc)' : 'cancelled (Ctrl-C)');
  }
}

/** What `ask` hands each prompt: inquirer's context, with a signal that Esc aborts. */
export interface PromptContext {
  signal: AbortSignal;
}

/**
 * Runs one inquirer prompt; Esc or Ctrl-C become PromptCancelled. inquirer answers Ctrl-C itself; Esc is ours
 * (readline reports a lone Esc after its escape-sequence timeout), and aborts the prompt through its signal.
 */
export async function ask<T>(prompt: (ctx: PromptContext) => Promise<T>): Promise<T> {
  const abort = new AbortController();
  const onKey = (_s: string, key: { name?: string } | undefined) => {
    if (key?.name === 'escape') abort.abort();
  };
  emitKeypressEvents(process.stdin);
  process.stdin.on('keypress', onKey);
  try {
    return await prompt({ signal: abort.signal });
  } catch (err) {
    const name = (err as Error)?.name;
    if (name === 'AbortPromptError') throw new PromptCancelled('escape');
    if (name === 'ExitPromptError') throw new PromptCancelled('interrupt');
    throw err;
  } finally {
    process.stdin.off('keypress', onKey);
  }
}

/** The prompt modules, loaded only by the terminal commands (they cost start-up every other command skips). */
export async function loadPrompts() {
  const [search, select, input, confirm, fuzzysort] = await Promise.all([
    import('@inquirer/search'),
    import('@inquirer/select'),
    import('@inquirer/input'),
    import('@inquirer/confirm'),
    import('fuzzysort'),
  ]);
  return {
    search: search.default,
    select: select.default,
    input: input.default,
    confirm: confirm.default,
    fuzzysort: fuzzysort.default,
  };
}

export type Prompts = Awaited<ReturnType<typeof loadPrompts>>;
