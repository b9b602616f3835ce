// The version straight from its module, not the ops door: this file loads before anything else of hub.
import { HUB_VERSION } from '../../ops/build-info.js';
import { forwardToDaemon } from './daemon-client.js';

// A reader that went away (`hub ... | head`) is not an error: stop quietly, as Unix tools do.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(0);
  throw err;
});

/** A running daemon of this build takes the command; otherwise hub loads and runs it here. */
async function run(argv: string[]): Promise<number> {
  // `hub --version` alone prints what commander's version option prints, without loading the command tree.
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
    await new Promise<void>((resolve) => process.stdout.write(`${HUB_VERSION}\n`, () => resolve()));
    return 0;
  }
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
