import { statSync } from 'node:fs';
import type { OpContext, Workspace } from './context.js';

function fileKey(path: string): string | undefined {
  try {
    const st = statSync(path, { bigint: true });
    return `${st.ino}:${st.size}:${st.mtimeNs}`;
  } catch {
    return undefined;
  }
}

/**
 * Fresh contexts per call (so the gate, the application config and the state store are read anew), sharing the
 * loaded workspace while the manifest file is unchanged: a long-lived server skips hashing and re-reading a large
 * manifest on every call, and still sees an edit by another process at once. A write through an operation calls
 * `invalidate()`, which drops the shared copy.
 */
export function workspaceMemo(create: () => OpContext, manifest: string): () => OpContext {
  let memo: { key: string; ws: Workspace } | undefined;
  return () => {
    const ctx = create();
    return {
      ...ctx,
      workspace(): Workspace {
        const key = fileKey(manifest);
        if (key !== undefined && memo?.key === key) return memo.ws;
        const ws = ctx.workspace();
        memo = key === undefined ? undefined : { key, ws };
        return ws;
      },
      invalidate(): void {
        memo = undefined;
        ctx.invalidate();
      },
    };
  };
}
