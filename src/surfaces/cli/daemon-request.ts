import * as z from 'zod';
import { PROTOCOL } from './daemon-protocol.js';

// Requests a client sends the daemon. The client imports only the types (erased by the bundler), so zod never
// joins the CLI's first modules; the daemon parses every request with these schemas.

const Base = { hub_daemon: z.literal(PROTOCOL), build: z.string() };

export const CommandRequestSchema = z.object({
  ...Base,
  argv: z.array(z.string()),
  cwd: z.string(),
  env: z.record(z.string(), z.string()),
  /** Whether the client's stdin holds data (a file or a pipe): commands that read it then run in the client. */
  stdin: z.boolean(),
});
export type CommandRequest = z.infer<typeof CommandRequestSchema>;

export const ControlRequestSchema = z.object({ ...Base, control: z.enum(['status', 'stop']) });
export type ControlRequest = z.infer<typeof ControlRequestSchema>;

export const RequestSchema = z.union([ControlRequestSchema, CommandRequestSchema]);
