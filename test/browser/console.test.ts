// The Workspace Console in a real Chromium against a real `hub web serve` on a demo copy with coordination state
// made through the CLI: pending approvals resolved from the page (then read back through the CLI), handoffs and
// claims with holders and expiry, worktrees and leases per agent, and the events feed updating live while the page
// is open.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTempDir, removeTempDir } from '../fixtures/index.js';
import { hubIn, type Seeded, seedCoordination } from './coord-seed.js';
import { describeBrowser, useBrowser } from './harness.js';

async function settled(page: Page): Promise<void> {
  await page.getByRole('heading', { level: 1, name: 'Workspace Console' }).waitFor();
  await page.locator('.loading').first().waitFor({ state: 'detached' });
}

describeBrowser('Workspace Console', () => {
  let dir: string;
  let seeded: Seeded;
  const ws: { root?: string } = {};
  beforeAll(() => {
    dir = createTempDir('hub-console-ui-');
    seeded = seedCoordination(dir);
    ws.root = seeded.root;
  });
  afterAll(() => removeTempDir(dir));
  const ui = useBrowser(ws);

  it('shows pending approvals, handoffs and claims with holders and expiry, holdings per agent, and the events', async () => {
    const page = await ui.open('/console');
    await settled(page);
    const approvals = page.getByRole('region', { name: 'Pending approvals' });
    await approvals.getByRole('cell', { name: /^deploy identity to prod/ }).waitFor();
    expect(await approvals.getByRole('button', { name: /^Approve / }).count()).toBe(2);

    const handoffs = page.getByRole('region', { name: 'Open handoffs' });
    const claimed = handoffs.getByRole('row', { name: /Review the auth change/ });
    expect(await claimed.textContent()).toMatch(/claimed.*agent-b.*in (1 h|59 min|2 h)/);
    expect(await handoffs.getByRole('row', { name: /Write migration notes/ }).textContent()).toContain(
      'open',
    );

    const claims = page.getByRole('region', { name: 'Live claims' });
    expect(await claims.getByRole('row', { name: /services\/api/ }).textContent()).toMatch(
      /platform\/identity.*agent-a.*auth-refactor.*in \d+ min/,
    );

    const holdings = page.getByRole('region', { name: 'Worktrees and leases by agent' });
    const rows = holdings.getByRole('row', { name: /agent-a/ });
    await expect.poll(() => rows.count()).toBe(2);
    expect(await holdings.getByRole('row', { name: /worktree/ }).textContent()).toContain('present');
    expect(await holdings.getByRole('row', { name: /lease/ }).textContent()).toContain('agent/auth-refactor');

    const feed = page.getByRole('region', { name: 'Coordination events, newest first' });
    await feed
      .getByRole('row', { name: /ApprovalRequested/ })
      .first()
      .waitFor();
    expect(await feed.getByRole('row', { name: /WorktreeCreated/ }).count()).toBe(1);
    await ui.screenshot(page, 'console');
    const dark = await ui.open('/console', { colorScheme: 'dark' });
    await settled(dark);
    await dark.getByRole('region', { name: 'Pending approvals' }).getByRole('cell').first().waitFor();
    await ui.screenshot(dark, 'console-dark');
  });

  it('approves and denies from the Console after a confirmation; the CLI reads them back resolved', async () => {
    const page = await ui.open('/console');
    await settled(page);
    const approvals = page.getByRole('region', { name: 'Pending approvals' });
    await approvals.getByRole('button', { name: 'Approve deploy identity to prod' }).click();
    const dialog = page.getByRole('dialog', { name: /Approve “deploy identity to prod”/ });
    await dialog.waitFor();
    // Cancel changes nothing.
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const pending = hubIn(seeded.root, ['context', 'approval', 'list', '--json']).json().requests;
    expect(pending).toHaveLength(2);

    await approvals.getByRole('button', { name: 'Approve deploy identity to prod' }).click();
    await dialog.getByLabel('Note (optional)').fill('change window is open');
    await dialog.getByLabel('Decided by (optional)').fill('ops-lead');
    await dialog.getByRole('button', { name: 'Approve', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'approved: deploy identity to prod' }).waitFor();
    await expect
      .poll(() => approvals.getByRole('cell', { name: /^deploy identity to prod/ }).count())
      .toBe(0);

    await approvals.getByRole('button', { name: 'Deny rotate signing keys' }).click();
    const deny = page.getByRole('dialog', { name: /Deny “rotate signing keys”/ });
    await deny.getByRole('button', { name: 'Deny', exact: true }).click();
    await approvals.getByRole('cell', { name: 'Nothing waits for approval.' }).waitFor();

    const all = hubIn(seeded.root, ['context', 'approval', 'list', '--status', 'all', '--json']).json()
      .requests;
    const byId = new Map(all.map((r: { id: string }) => [r.id, r]));
    expect(byId.get(seeded.approvals['deploy identity to prod'])).toMatchObject({
      status: 'approved',
      decision: 'approved',
      resolved_by: 'ops-lead',
      resolver_note: 'change window is open',
    });
    expect(byId.get(seeded.approvals['rotate signing keys'])).toMatchObject({ status: 'denied' });
    // The resolution is in the feed at once (read after the write, whatever the polling).
    const feed = page.getByRole('region', { name: 'Coordination events, newest first' });
    await expect.poll(() => feed.getByRole('row', { name: /ApprovalResolved/ }).count()).toBe(2);

    // Resolving twice is refused by the server, and the dialog says so (a stale page still listing it).
    ui.allowConsole(/status of 409/);
    const again = hubIn(seeded.root, [
      'context',
      'approval',
      'request',
      '--action',
      'scale the gateway',
      '--requested-by',
      'agent-c',
      '--json',
    ]).json().request.id;
    await page
      .getByRole('group', { name: 'Live updates' })
      .getByRole('button', { name: 'Refresh now' })
      .click();
    await approvals.getByRole('button', { name: 'Approve scale the gateway' }).click();
    hubIn(seeded.root, ['context', 'approval', 'resolve', '--id', again, '--decision', 'denied']);
    const stale = page.getByRole('dialog', { name: /Approve “scale the gateway”/ });
    await stale.getByRole('button', { name: 'Approve', exact: true }).click();
    await stale.getByRole('alert').waitFor();
    expect(await stale.getByRole('alert').textContent()).toMatch(/already|resolved/i);
  });

  it('shows an event made through the CLI while the page is open, without a reload', async () => {
    const page = await ui.open('/console');
    await settled(page);
    const feed = page.getByRole('region', { name: 'Coordination events, newest first' });
    await feed.getByRole('row').nth(1).waitFor();
    hubIn(seeded.root, [
      'context',
      'handoff',
      'create',
      '--id',
      'ho-live',
      '--title',
      'Live handoff',
      '--created-by',
      'agent-c',
    ]);
    const row = feed.getByRole('row', { name: /ho-live/ });
    await row.waitFor({ timeout: 15_000 });
    // Marked new (the mark follows the row by one batch of the feed).
    await row.getByText('new', { exact: true }).waitFor();
    // The handoffs list was refreshed by the same event.
    await page
      .getByRole('region', { name: 'Open handoffs' })
      .getByRole('row', { name: /Live handoff/ })
      .waitFor();
  });

  it('shows every open handoff, past the route default page and past one page of the largest size', async () => {
    // One PUT of the whole document (compare-and-swap on its ETag): 1,050 more open handoffs.
    const got = await fetch(`${ui.base}/v3/ops/handoffs`);
    const doc = (await got.json()) as { handoffs: Array<Record<string, unknown>> };
    const open = doc.handoffs.find((h) => h.status === 'open')!;
    const more = Array.from({ length: 1050 }, (_, i) => ({
      ...open,
      id: `ho-bulk-${i}`,
      title: `Bulk ${i}`,
    }));
    const put = await fetch(`${ui.base}/v3/ops/handoffs`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', 'if-match': got.headers.get('etag') ?? '""' },
      body: JSON.stringify({ handoffs: [...doc.handoffs, ...more] }),
    });
    expect(put.status, await put.text()).toBe(200);
    const shown =
      doc.handoffs.filter((h) => h.status === 'open' || h.status === 'claimed').length + more.length;
    const page = await ui.open('/console');
    await settled(page);
    const heading = page.getByRole('heading', { name: /^Open handoffs/ });
    await expect.poll(() => heading.textContent(), { timeout: 15_000 }).toContain(`(${shown})`);
  });
});
