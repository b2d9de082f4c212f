import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { analystResponder, createPgDatabase, loadPgChinook, startFakeOpenAI, type FakeOpenAI, type PgDatabase } from './support/backend-support';
import { screenshot } from './support/browser';
import { appInBrowser, browserApi, registerInBrowser } from './support/session';

// Review before run in a real browser: an expensive query (a 7.8 M-row cross join on Chinook) is shown before it
// runs, with the database's estimate; the person edits it and runs the edit; the result and its chart render.
// Then "Edit and run" under that SQL reruns an edited query through the same path as `SQL:`.

const QUESTION = 'How many track and invoice line pairs are there per media type? Chart it.';
const PROPOSED =
  'SELECT mt.name AS media, count(*) AS pairs FROM track t CROSS JOIN invoice_line l JOIN media_type mt ON mt.media_type_id = t.media_type_id GROUP BY mt.name ORDER BY pairs DESC';
const EDITED =
  'SELECT mt.name AS media, count(*) AS pairs FROM track t JOIN invoice_line l ON l.track_id = t.track_id JOIN media_type mt ON mt.media_type_id = t.media_type_id GROUP BY mt.name ORDER BY pairs DESC';
const RERUN = 'SELECT count(*) AS artists FROM artist';
const CHART = '```json\n{"mark":"bar","title":"Pairs per media type","encoding":{"x":{"field":"media","type":"nominal","sort":"-y"},"y":{"field":"pairs","type":"quantitative"}}}\n```';

describe('review before run in Chromium (built server, scripted model, Chinook on PostgreSQL)', () => {
  let fake: FakeOpenAI;
  let db: PgDatabase;
  let page: Page;
  let pageErrors: string[];
  let apiCall: ReturnType<typeof browserApi>;
  let threadId = '';
  let truth: string[][] = [];

  const byTestId = (id: string) => page.getByTestId(id);
  const session = appInBrowser(() => Promise.all([fake?.close(), db?.drop()]));

  beforeAll(async () => {
    await Promise.all([
      startFakeOpenAI({
        models: ['qwen/qwen3-8b'],
        responder: analystResponder({ sqlFor: () => PROPOSED, wantsChart: () => true, chartSpec: () => CHART }),
      }).then((f) => (fake = f)),
      createPgDatabase('web_review').then((d) => (db = d)),
    ]);
    await loadPgChinook(db);
    truth = (await db.query<{ media: string; pairs: string }>(EDITED)).map((r) => [r.media, String(Number(r.pairs))]);
    const { app, context, ...opened } = await session.open({ LM_STUDIO_ENDPOINT: fake.url, SSE_PING_MS: '1000' }, fake);
    ({ page, pageErrors } = opened);
    apiCall = browserApi(context, app.url);
  });

  it('registers, and opens a thread on Chinook whose review follows the connection', async () => {
    await registerInBrowser(page, 'review');
    const connection = await apiCall('POST', '/connections', { name: 'Chinook', url: db.url });
    expect(connection.review).toBe('expensive');
    threadId = (await apiCall('POST', '/chat', { model: 'qwen', connection_id: connection.id })).thread_id;
    await page.goto(`/threads/${threadId}`);
    await byTestId('thread-review').waitFor();
    expect(await byTestId('thread-review').inputValue()).toBe('');
    // The connection's own mode shows once the connections have loaded.
    await expect.poll(() => byTestId('thread-review').locator('option:checked').textContent()).toBe('Like the connection (when expensive)');
  });

  it('shows the expensive query with its estimate before it runs; the edit runs, with its table and chart', async () => {
    await byTestId('message-input').fill(QUESTION);
    await byTestId('message-input').press('Enter');
    const card = byTestId('review-proposal');
    await card.waitFor({ timeout: 20_000 });
    expect(await card.getByTestId('sql-block').textContent()).toContain('CROSS JOIN invoice_line');
    const estimate = (await byTestId('review-estimate').textContent()) ?? '';
    expect(estimate).toMatch(/^Estimate: .*~\d+(\.\d)? M rows processed/);
    expect(await byTestId('review-reason').textContent()).toMatch(/expensive/);
    // Nothing ran yet: no result table.
    expect(await byTestId('results-table').count()).toBe(0);
    await screenshot(page, 'review-01-proposal');

    await byTestId('review-edit').click();
    await byTestId('review-sql-input').fill(EDITED);
    await screenshot(page, 'review-02-editing');
    await byTestId('review-run').click();

    await card.waitFor({ state: 'detached', timeout: 20_000 });
    await expect.poll(() => tableRows(page, 0), { timeout: 20_000 }).toEqual(truth);
    expect(await byTestId('sql-block').first().textContent()).toContain('JOIN invoice_line l ON l.track_id = t.track_id');
    await expect.poll(() => chartBars(page, 0), { timeout: 20_000 }).toBe(truth.length);
    await expect.poll(() => byTestId('assistant-text').last().textContent(), { timeout: 20_000 }).toBe(`The top result is ${truth[0][0]} with ${truth[0][1]}.`);
    expect(pageErrors).toEqual([]);
    await page.setViewportSize({ width: 1280, height: 1500 });
    await screenshot(page, 'review-03-edited-result-and-chart');
    await page.setViewportSize({ width: 1280, height: 860 });
  });

  it('"Edit and run" under the SQL reruns an edited query as SQL:, and the thread remembers it', async () => {
    await byTestId('edit-and-run').first().click();
    await byTestId('edit-and-run-input').fill(RERUN);
    await byTestId('edit-and-run-submit').click();
    await expect.poll(() => byTestId('user-message').last().textContent(), { timeout: 10_000 }).toContain(RERUN);
    await expect.poll(() => tableRows(page, 1), { timeout: 20_000 }).toEqual([['275']]);
    const thread = await apiCall('GET', `/chat/${threadId}`);
    expect(thread.pending_review).toBeNull();
    expect(thread.messages.filter((m: { role: string }) => m.role === 'user').map((m: { content: string }) => m.content)).toEqual([QUESTION, `SQL: ${RERUN}`]);
    await screenshot(page, 'review-04-edit-and-run');
  });
});

function tableRows(page: Page, index: number): Promise<string[][]> {
  return page
    .getByTestId('results-table')
    .nth(index)
    .locator('tbody tr')
    .evaluateAll((rows) => rows.map((r) => Array.from(r.querySelectorAll('td')).map((td) => (td.textContent ?? '').trim())));
}

async function chartBars(page: Page, index: number): Promise<number> {
  const container = page.getByTestId('chart-container').nth(index);
  if ((await container.locator('svg').count()) === 0) return 0;
  return container.locator('svg .mark-rect path').count();
}
