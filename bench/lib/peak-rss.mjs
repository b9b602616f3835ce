// Peak resident set of hub commands, next to their times: one extra untimed run of each spawn case.
import { timeSpawnRss } from './measure.mjs';

/**
 * Runs each case once through timeSpawnRss and returns {name: peak_rss_mb}: a run of its own, since the preload that
 * reads getrusage would otherwise be part of the timed samples. HUB_DAEMON=off, so the memory is the command's own,
 * not that of a client handing it to a running `hub daemon`.
 */
export function peakRss(cases) {
  return Object.fromEntries(
    Object.entries(cases).map(([name, c]) => [
      name,
      timeSpawnRss(c.command, c.args, { ...c, env: { ...(c.env ?? process.env), HUB_DAEMON: 'off' } })
        .peak_rss_mb,
    ]),
  );
}
