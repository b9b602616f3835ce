// A worker thread of test/run-hub.ts: sends one command to the test worker's hub daemon over its Unix socket and
// hands the frames back, so the synchronous runHub can wait on it (Atomics.wait) without spawning a process.
import { createConnection } from 'node:net';
import { parentPort, workerData } from 'node:worker_threads';

const { port } = workerData;

function exchange(socket, request) {
  return new Promise((resolve) => {
    const s = createConnection(socket);
    const answer = { declined: undefined, ran: false, code: undefined, stdout: '', stderr: '', lost: false };
    let buf = '';
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      s.destroy();
      resolve(answer);
    };
    s.setEncoding('utf8');
    s.on('connect', () => s.write(`${JSON.stringify(request)}\n`));
    s.on('data', (chunk) => {
      buf += chunk;
      for (let nl = buf.indexOf('\n'); nl >= 0 && !done; nl = buf.indexOf('\n')) {
        const frame = JSON.parse(buf.slice(0, nl));
        buf = buf.slice(nl + 1);
        if ('run' in frame) answer.ran = true;
        else if ('decline' in frame) answer.declined = frame.decline;
        else if ('out' in frame) answer.stdout += frame.out;
        else if ('err' in frame) answer.stderr += frame.err;
        else if ('exit' in frame) answer.code = frame.exit;
        else if ('status' in frame) answer.status = frame.status;
        if (answer.declined !== undefined || answer.code !== undefined || answer.status) finish();
      }
    });
    const lost = () => {
      if (done) return;
      answer.lost = true;
      finish();
    };
    s.on('error', lost);
    s.on('close', lost);
  });
}

port.on('message', async ({ socket, request, flag }) => {
  let answer;
  try {
    answer = await exchange(socket, request);
  } catch (err) {
    answer = { lost: true, error: String(err) };
  }
  port.postMessage(answer);
  const view = new Int32Array(flag);
  Atomics.store(view, 0, 1);
  Atomics.notify(view, 0);
});
parentPort?.postMessage('ready');
