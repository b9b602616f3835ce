// A timestamp shown relative to now ("in 42 min", "3 h ago") with the exact time in its title and dateTime; one
// shared 15-second ticker keeps every instance current without a timer each.
import { useSyncExternalStore } from 'react';

const TICK_MS = 15_000;
let now = Date.now();
const listeners = new Set<() => void>();
let timer: ReturnType<typeof setInterval> | undefined;

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  if (!timer) {
    timer = setInterval(() => {
      now = Date.now();
      for (const l of listeners) l();
    }, TICK_MS);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer) {
      clearInterval(timer);
      timer = undefined;
    }
  };
}

const UNITS: Array<[number, string]> = [
  [86_400_000, 'd'],
  [3_600_000, 'h'],
  [60_000, 'min'],
  [1000, 's'],
];

/** `in 5 min` / `5 min ago` / `now`, rounded to the largest whole unit. */
export function relative(iso: string, at: number = Date.now()): string {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return iso;
  const diff = t - at;
  const abs = Math.abs(diff);
  if (abs < 5000) return 'now';
  const [size, unit] = UNITS.find(([s]) => abs >= s) ?? [1000, 's'];
  const n = Math.floor(abs / size);
  return diff > 0 ? `in ${n} ${unit}` : `${n} ${unit} ago`;
}

export function RelativeTime({ iso, empty = '—' }: { iso: string | null | undefined; empty?: string }) {
  const at = useSyncExternalStore(subscribe, () => now);
  if (!iso) return <span className="muted">{empty}</span>;
  return (
    <time dateTime={iso} title={iso}>
      {relative(iso, Math.max(at, Date.now() - TICK_MS))}
    </time>
  );
}
