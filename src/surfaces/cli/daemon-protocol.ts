/**
 * The daemon's wire format: newline-delimited JSON over a Unix socket. A client sends one request; the daemon
 * answers with frames and closes. The first frame is `decline` (nothing ran: the client runs the command
 * itself) or `run` (the command is the daemon's from here: a client that loses the daemon after it must not
 * run the command again).
 */
export const PROTOCOL = 1;

export type Frame =
  | { run: true }
  | { out: string }
  | { err: string }
  | { exit: number }
  | { decline: string }
  | { status: DaemonStatus };

export interface DaemonStatus {
  pid: number;
  build: string;
  socket: string;
  started_at: string;
  idle_minutes: number;
  /** The log file of a daemon started in the background; null when it logs to its own stderr. */
  log: string | null;
  /** Commands run for clients since the start. */
  served: number;
  /** Requests sent back to run in the client, by reason. */
  declined: Record<string, number>;
}
