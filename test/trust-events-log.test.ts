// Hostile events logs a cloned workspace can ship (`.hub/coord.events.log/`, its lock): the cases of
// bench/hostile/events-log.mjs, each run as a test against the built CLI. Each must end as the case expects:
// recorded and read around what can be set aside, or refused clearly; never `internal`, a stack, a hang, or a
// write outside the workspace.
import { afterAll, describe, expect, it } from 'vitest';
import { cases } from '../bench/hostile/events-log.mjs';
import { createKit } from '../bench/hostile/kit.mjs';

const kit = createKit();
afterAll(() => kit.cleanup());

describe('a cloned workspace ships a hostile events log', () => {
  for (const c of cases)
    it(c.name, { timeout: 90_000 }, async () => {
      const out = await c.run(kit);
      expect(out, out.detail).toMatchObject({ verdict: c.expect });
    });
});
