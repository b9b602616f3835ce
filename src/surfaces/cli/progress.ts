import type { Progress } from '../../ops/index.js';

type Bar = {
  start(total: number, value: number, payload: Record<string, string>): void;
  update(value: number, payload: Record<string, string>): void;
  stop(): void;
};

/**
 * Progress as plain lines (`title 3/200 p/a: updated`), one per unit: what a log file, a CI job or a pipe
 * reads best.
 */
export function lineProgress(write: (line: string) => void): (title: string, total: number) => Progress {
  return (title, total) => {
    let n = 0;
    return {
      tick: (label) => {
        n++;
        write(`${title} ${n}/${total} ${label}`);
      },
      done: () => {},
    };
  };
}

/**
 * A bar redrawn in place on a terminal's stderr. cli-progress loads on first use (most commands never report
 * progress, and start-up stays small); units done before it loads are counted and shown once it has.
 */
export function barProgress(stream: NodeJS.WriteStream): (title: string, total: number) => Progress {
  return (title, total) => {
    let value = 0;
    let label = '';
    let bar: Bar | undefined;
    let finished = false;
    void import('cli-progress').then((m) => {
      if (finished) return;
      const lib = (m as unknown as { default?: typeof m }).default ?? m;
      bar = new lib.SingleBar(
        {
          stream,
          format: `${title} [{bar}] {value}/{total} {label}`,
          barsize: 24,
          hideCursor: true,
          clearOnComplete: true,
          linewrap: false,
        },
        lib.Presets.shades_classic,
      ) as unknown as Bar;
      bar.start(total, value, { label });
    });
    return {
      tick: (l) => {
        value++;
        label = l;
        bar?.update(value, { label });
      },
      done: () => {
        finished = true;
        bar?.stop();
      },
    };
  };
}
