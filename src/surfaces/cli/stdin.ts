import { fstatSync } from 'node:fs';

/** How long an open pipe or socket may stay silent before it counts as "nothing piped". */
const FIRST_BYTE_MS = 1_000;

/**
 * Standard input as text. A file is read whole; a pipe or socket is read to its end once it has sent a first
 * byte within a second, so an inherited stream that never closes cannot hang the command. A terminal or
 * /dev/null reads as empty.
 */
export async function readStdin(): Promise<string> {
  let kind: 'file' | 'stream' | 'none' = 'none';
  try {
    const st = fstatSync(0);
    kind = st.isFile() ? 'file' : st.isFIFO() || st.isSocket() ? 'stream' : 'none';
  } catch {
    // no stdin at all
  }
  if (kind === 'none') return '';
  const stdin = process.stdin;
  const chunks: Buffer[] = [];
  return await new Promise<string>((resolve, reject) => {
    let timer: NodeJS.Timeout | undefined;
    const done = () => {
      if (timer) clearTimeout(timer);
      stdin.off('data', onData);
      stdin.off('end', done);
      stdin.off('error', reject);
      stdin.pause();
      resolve(Buffer.concat(chunks).toString('utf8'));
    };
    const onData = (c: Buffer) => {
      if (timer) clearTimeout(timer);
      timer = undefined;
      chunks.push(c);
    };
    if (kind === 'stream') {
      timer = setTimeout(() => {
        if (chunks.length === 0) {
          stdin.destroy();
          done();
        }
      }, FIRST_BYTE_MS);
    }
    stdin.on('data', onData);
    stdin.once('end', done);
    stdin.once('error', reject);
  });
}
