// Runs `hub daemon serve` for test/run-hub.ts and stops it when the test worker that started it goes away (its
// end of our stdin closes), however the worker ends: a test runner may kill its workers without an exit event.
// It removes the daemon's private runtime folder too.
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';

const [bin, ...args] = process.argv.slice(2);
const daemon = spawn(process.execPath, [bin, ...args], { stdio: 'ignore' });
// The runtime folder (XDG_RUNTIME_DIR) was made for this daemon alone.
const cleanUp = () => rmSync(process.env.XDG_RUNTIME_DIR, { recursive: true, force: true });
const stop = () => {
  daemon.kill();
  daemon.once('exit', () => {
    cleanUp();
    process.exit(0);
  });
};
process.stdin.on('end', stop);
process.stdin.on('close', stop);
process.stdin.on('error', stop);
process.stdin.resume();
process.on('SIGTERM', stop);
daemon.on('exit', (code) => {
  cleanUp();
  process.exit(code ?? 1);
});
