import type * as ChildProcess from 'node:child_process';

/**
 * `node:child_process`, loaded on first use: it pulls in net, dgram and the stream modules (~5 ms of start-up)
 * that commands answered from the manifest alone never need.
 */
export function childProcess(): typeof ChildProcess {
  return process.getBuiltinModule('node:child_process');
}
