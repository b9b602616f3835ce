import { forwardToDaemon } from './daemon-client.js';

// A reader that went away (`hub ... | head`) is not an error: stop quietly, as Unix tools do.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(0);
  throw err;
});

/** A running daemon of this build takes the command; otherwise hub loads and runs it here. */
async function run(argv: string[]): Promise<number> {
  const forwarded = await forwardToDaemon(argv);
  if (forwarded !== undefined) return forwarded;
  const { main } = await import('./main.js');
  return await main(argv);
}

run(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`error: ${(err as Error)?.message ?? String(err)}\n`);
    process.exitCode = 1;
  },
);
