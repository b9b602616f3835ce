// The polling bar of the spec's Agents page (Objectives and Sessions), also used by the Workspace Console:
// a live-update toggle, the frequency (30s, 60s, 90s, 300s; default 90s) and Refresh now. The frequency is the
// react-query refetchInterval of the page's lists; the live events stream, when the server pushes, makes changes
// appear sooner (see web/src/api/live-events.ts) and the bar says which of the two is at work.
import { type ReactNode, useId, useState } from 'react';
import './polling-bar.css';

/** The spec's polling options, in seconds (spec: "UI polling options: 30s, 60s, 90s, 300s; default 90s"). */
export const POLL_OPTIONS = [30, 60, 90, 300] as const;
export type PollSeconds = (typeof POLL_OPTIONS)[number];
export const DEFAULT_POLL_SECONDS: PollSeconds = 90;

export interface Polling {
  live: boolean;
  seconds: PollSeconds;
  setLive: (live: boolean) => void;
  setSeconds: (seconds: PollSeconds) => void;
  /** refetchInterval for react-query: the period while live, else false. */
  refetchInterval: number | false;
}

/** The bar's state: live on (as the earlier product) and 90 s by default. */
export function usePolling(initial: { live?: boolean; seconds?: PollSeconds } = {}): Polling {
  const [live, setLive] = useState(initial.live ?? true);
  const [seconds, setSeconds] = useState<PollSeconds>(initial.seconds ?? DEFAULT_POLL_SECONDS);
  return { live, seconds, setLive, setSeconds, refetchInterval: live ? seconds * 1000 : false };
}

export interface PollingBarProps {
  polling: Polling;
  onRefresh: () => void;
  refreshing?: boolean;
  /** What keeps the page current right now (e.g. "Server push + polling every 90s"). */
  status?: ReactNode;
  /** Accessible name of the bar. */
  label?: string;
}

export function PollingBar({
  polling,
  onRefresh,
  refreshing,
  status,
  label = 'Live updates',
}: PollingBarProps) {
  const id = useId();
  return (
    <fieldset className="polling-bar" aria-label={label}>
      <label className="polling-bar__toggle" htmlFor={`${id}-live`}>
        <input
          id={`${id}-live`}
          type="checkbox"
          role="switch"
          checked={polling.live}
          aria-checked={polling.live}
          onChange={(e) => polling.setLive(e.target.checked)}
        />
        Live update
      </label>
      <label htmlFor={`${id}-every`}>
        Every{' '}
        <select
          id={`${id}-every`}
          value={polling.seconds}
          onChange={(e) => polling.setSeconds(Number(e.target.value) as PollSeconds)}
        >
          {POLL_OPTIONS.map((s) => (
            <option key={s} value={s}>
              {s}s
            </option>
          ))}
        </select>
      </label>
      <button type="button" onClick={onRefresh} disabled={refreshing}>
        {refreshing ? 'Refreshing…' : 'Refresh now'}
      </button>
      {status !== undefined && (
        <output className="polling-bar__status" aria-live="polite">
          {status}
        </output>
      )}
    </fieldset>
  );
}
