import type { BrowserContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AppServer } from './support/app-server';
import {
  analystResponder,
  CHART_WRITER_MARK,
  createPgDatabase,
  loadPgChinook,
  reply,
  SQL_WRITER_MARK,
  startFakeOpenAI,
  type FakeOpenAI,
  type FakeRequest,
  type PgDatabase,
} from './support/backend-support';
import { DESKTOP, horizontalOverflow, PHONE, screenshot, widestElement } from './support/browser';
import { appInBrowser, PASSWORD } from './support/session';

// The issue-4 scenario in a real browser: register → add Chinook (PostgreSQL) → new thread → pick a
// model and the database → ask → streamed text, SQL, table, chart → switch model, ask again → Stop →
// reload. One app, one browser page and one scripted model for the whole file; the tests run in order
// and each continues where the previous one left the page.

const TOP_ARTISTS = 'Which 5 artists have the most tracks? Chart it.';
const TOP_GENRES = 'Which genres have the most tracks?';
const LONG_ANSWER = 'Describe the catalogue in detail.';

const SQL = {
  artists:
    'SELECT ar.name AS artist, COUNT(*) AS tracks FROM artist ar JOIN album al ON al.artist_id = ar.artist_id JOIN track t ON t.album_id = al.album_id GROUP BY ar.name ORDER BY tracks DESC, ar.name LIMIT 5',
  genres: 'SELECT g.name AS genre, COUNT(*) AS tracks FROM genre g JOIN track t ON t.genre_id = g.genre_id GROUP BY g.name ORDER BY tracks DESC, g.name LIMIT 3',
};

/** A long answer played slowly, so there is time to press Stop in the middle of it. */
const SLOW_TEXT = Array.from({ length: 80 }, (_, i) => `word${i + 1}`).join(' ');
const SLOW_TOKENS_PER_SECOND = 8;

const EMAIL = `e2e-${Date.now().toString(36)}@example.com`;

/** The analyst script, with the pacing that makes each step observable in the browser. */
function scriptedModel() {
  const analyst = analystResponder({
    sqlFor: (question) => (question.includes('artists') ? SQL.artists : SQL.genres),
    wantsChart: (question) => /chart/i.test(question),
  });
  return (request: FakeRequest) => {
    const question = [...request.messages].reverse().find((m) => m.role === 'user')?.content ?? '';
    if (question === LONG_ANSWER && request.tools.length > 0 && request.lastMessage?.role === 'user') {
      return reply.text(SLOW_TEXT, { tokensPerSecond: SLOW_TOKENS_PER_SECOND });
    }
    const response = analyst(request);
    if (!response || response.kind !== 'text') return response;
    // The SQL writer thinks for a moment, so "Querying the database…" is on screen long enough to see;
    // the final answer streams word by word.
    if (request.system.includes(SQL_WRITER_MARK)) return { ...response, firstTokenDelayMs: 400 };
    if (request.system.includes(CHART_WRITER_MARK)) return response;
    return { ...response, tokensPerSecond: 20 };
  };
}

describe('the web app in Chromium, against the built server with a scripted model and Chinook on PostgreSQL', () => {
  let fake: FakeOpenAI;
  let db: PgDatabase;
  let app: AppServer;
  let context: BrowserContext;
  let page: Page;
  let pageErrors: string[];
  let serverVersion: string;
  let topArtists: { artist: string; tracks: number }[];
  let topGenres: { genre: string; tracks: number }[];
  let connectionId = '';
  let threadId = '';
  let partialText = '';

  const byTestId = (id: string) => page.getByTestId(id);
  const sentAfter = (seq: number) => fake.completions().filter((r) => r.seq > seq);
  const lastSeq = () => fake.requests.at(-1)?.seq ?? 0;
  const session = appInBrowser(() => Promise.all([fake?.close(), db?.drop()]));

  beforeAll(async () => {
    // Assigned one by one, so afterAll cleans up whatever did start if another part fails.
    await Promise.all([
      startFakeOpenAI({ models: ['qwen/qwen3-8b', 'openai/gpt-oss-20b'], responder: scriptedModel() }).then((f) => (fake = f)),
      createPgDatabase('web_e2e').then((d) => (db = d)),
    ]);
    await loadPgChinook(db);
    // The truth comes from the database, never from the test's expectations.
    [topArtists, topGenres, serverVersion] = await Promise.all([
      db.query<{ artist: string; tracks: string }>(SQL.artists).then((rows) => rows.map((r) => ({ artist: r.artist, tracks: Number(r.tracks) }))),
      db.query<{ genre: string; tracks: string }>(SQL.genres).then((rows) => rows.map((r) => ({ genre: r.genre, tracks: Number(r.tracks) }))),
      db.query<{ server_version: string }>('SHOW server_version').then((rows) => rows[0].server_version.split(' ')[0]),
    ]);
    ({ app, context, page, pageErrors } = await session.open({ LM_STUDIO_ENDPOINT: fake.url, SSE_PING_MS: '1000' }, fake));
  });

  it('sends a visitor to sign in, and registers an account', async () => {
    await page.goto('/');
    await page.waitForURL('**/login');
    await byTestId('auth-email').waitFor();
    await screenshot(page, '01-login');

    await byTestId('auth-switch').click();
    await page.waitForURL('**/register');
    await byTestId('auth-email').fill(EMAIL);
    await byTestId('auth-password').fill(PASSWORD);
    await byTestId('auth-submit').click();

    await byTestId('new-thread').waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    expect(await page.getByText(EMAIL).first().textContent()).toBe(EMAIL);
  });

  it('adds the Chinook PostgreSQL connection from a pasted URL and tests it: version and write warning', async () => {
    await byTestId('nav-connections').click();
    await page.waitForURL('**/connections');
    // The embedded default offers the generated demo store as a ready connection.
    await expect.poll(() => byTestId('connection-item').count()).toBe(1);
    await byTestId('connection-new').click();
    await page.waitForURL('**/connections/new');

    const url = new URL(db.url);
    await byTestId('conn-url').fill(url.toString());
    // The URL fills the fields in the browser; nothing is sent before saving.
    expect(await byTestId('conn-dialect-postgres').isChecked()).toBe(true);
    expect(await byTestId('conn-host').inputValue()).toBe(url.hostname);
    expect(await byTestId('conn-port').inputValue()).toBe(url.port || '5432');
    expect(await byTestId('conn-database').inputValue()).toBe(db.name);
    expect(await byTestId('conn-user').inputValue()).toBe(decodeURIComponent(url.username));
    await byTestId('conn-name').fill('Chinook');
    await byTestId('conn-save').click();

    // Saving tests the connection at once, and the URL becomes the connection's edit page.
    const result = page.locator('[data-testid="connection-test-result"][data-ok="true"]');
    await result.waitFor();
    expect(await result.textContent()).toContain(serverVersion);
    // The postgres role can write: the app says so and suggests a read-only role.
    const warning = byTestId('connection-write-warning');
    expect(await warning.textContent()).toMatch(/can write.*read-only role/s);
    // …and, in red, that a superuser can reach the server itself (files, programs).
    const elevated = byTestId('connection-elevated-warning');
    expect(await elevated.textContent()).toMatch(/Dangerous role: it is a superuser, can read files on the database server/);
    connectionId = /\/connections\/([^/]+)\/edit$/.exec(new URL(page.url()).pathname)?.[1] ?? '';
    expect(connectionId).not.toBe('');
    // Passwords are write-only: the field comes back empty.
    expect(await byTestId('conn-password').inputValue()).toBe('');

    // The list shows it beside the demo store; "Test" there answers the same way.
    await byTestId('nav-connections').click();
    const item = page.locator(`[data-testid="connection-item"][data-connection-id="${connectionId}"]`);
    // The list remembers what the last test found: the red warning shows before testing again.
    expect(await item.getByTestId('connection-elevated-warning').getAttribute('data-privileges')).toContain('superuser');
    await item.getByTestId('connection-test').click();
    await item.locator('[data-testid="connection-test-result"][data-ok="true"]').waitFor();
    await item.getByTestId('connection-elevated-warning').waitFor();
    expect(await item.getByTestId('connection-test-result').textContent()).toContain(serverVersion);
    await item.getByTestId('connection-write-warning').waitFor();
    expect(await byTestId('connection-item').count()).toBe(2);
    await screenshot(page, '02-connections-tested', { fullPage: true });
  });

  it('browses the Chinook schema: tables, columns with types and keys, sample rows', async () => {
    const item = page.locator(`[data-testid="connection-item"][data-connection-id="${connectionId}"]`);
    await item.getByTestId('connection-schema').click();
    await byTestId('schema-browser').waitFor();
    const tables = await byTestId('schema-table').allTextContents();
    expect(tables.length).toBe(11);
    await byTestId('schema-table').filter({ has: page.locator('.table-name', { hasText: /^(public\.)?track$/ }) }).click();
    const columns = byTestId('schema-columns');
    await expect.poll(() => columns.textContent()).toContain('genre_id');
    const columnsText = (await columns.textContent()) ?? '';
    expect(columnsText).toContain('PK');
    expect(columnsText).toMatch(/FK → (public\.)?album\.album_id/);
    // Sample rows of the table, in a results table under the columns.
    expect(await page.locator('[data-testid="schema-browser"] [data-testid="results-table"] tbody tr').count()).toBeGreaterThan(0);
    await screenshot(page, '03-schema-browser');
  });

  it('asks in a new thread with a chosen model and database: streamed text, SQL, table and chart', async () => {
    await byTestId('new-thread').click();
    await page.waitForURL(/\/threads\/[^/]+$/);
    threadId = new URL(page.url()).pathname.split('/').pop()!;

    // Every registry model is listed; the ones without a configured provider cannot be picked.
    const picker = byTestId('model-picker');
    // A new thread starts with an available model.
    await expect.poll(() => picker.inputValue()).toMatch(/^(gpt-oss-20b|qwen3-8b)$/);
    const options = await picker.locator('option').evaluateAll((els) => els.map((o) => ({ value: (o as HTMLOptionElement).value, disabled: (o as HTMLOptionElement).disabled, text: o.textContent ?? '' })));
    expect(options.filter((o) => !o.disabled).map((o) => o.value).sort()).toEqual(['gpt-oss-20b', 'qwen3-8b']);
    expect(options.find((o) => o.value === 'deepseek-chat')).toMatchObject({ disabled: true, text: expect.stringContaining('unavailable') });

    await picker.selectOption('qwen3-8b');
    await expect.poll(() => picker.inputValue()).toBe('qwen3-8b');
    await expect.poll(() => page.locator(`[data-testid="thread-item"][data-thread-id="${threadId}"]`).textContent()).toContain('qwen3-8b');
    await byTestId('connection-select').selectOption(connectionId);
    await expect.poll(() => byTestId('connection-note').textContent().catch(() => '')).toContain('11 tables');

    const before = lastSeq();
    await recordStreaming(page);
    // Keyboard: Enter in the composer sends.
    await byTestId('message-input').fill(TOP_ARTISTS);
    await byTestId('message-input').press('Enter');

    const final = `The top result is ${topArtists[0].artist} with ${topArtists[0].tracks}.`;
    await expect.poll(() => byTestId('assistant-text').last().textContent(), { timeout: 20_000 }).toBe(final);
    await byTestId('send-button').waitFor();

    // The text grew in steps as it streamed, and the tool work was shown while it ran.
    const seen = await streamingRecord(page);
    const growing = seen.texts.filter((t) => t.length > 0 && final.startsWith(t));
    expect(growing.length).toBeGreaterThanOrEqual(3);
    expect(growing.at(-1)).toBe(final);
    expect(seen.activities).toContain('ask_database');

    expect(await byTestId('user-message').allTextContents()).toEqual([TOP_ARTISTS]);
    const sql = (await byTestId('sql-block').textContent()) ?? '';
    expect(sql).toContain('GROUP BY ar.name');
    expect(sql).toContain('LIMIT 5');
    expect(await tableRows(page, 0)).toEqual(topArtists.map((r) => [r.artist, String(r.tracks)]));
    expect(await byTestId('results-row-count').first().textContent()).toMatch(/^5 rows/);
    await expect.poll(() => chartBars(page, 0)).toBe(topArtists.length);

    // Every upstream call of the turn (assistant, SQL writer, chart writer) used the thread's model.
    const turn = sentAfter(before);
    expect(turn.length).toBe(5);
    expect(new Set(turn.map((r) => r.model))).toEqual(new Set(['qwen/qwen3-8b']));
    await screenshot(page, '04-chat-table-chart');
    // The whole turn at once (the conversation scrolls inside its own pane, so: a taller window).
    await page.setViewportSize({ width: DESKTOP.width, height: 1500 });
    await screenshot(page, '04-chat-whole-turn');
    await page.setViewportSize(DESKTOP);
  });

  it('switches the model between messages, and the next turn goes to the new model', async () => {
    const picker = byTestId('model-picker');
    await picker.selectOption('gpt-oss-20b');
    await expect.poll(() => page.locator(`[data-testid="thread-item"][data-thread-id="${threadId}"]`).textContent()).toContain('gpt-oss-20b');

    const before = lastSeq();
    await byTestId('message-input').fill(TOP_GENRES);
    await byTestId('send-button').click();
    await expect
      .poll(() => byTestId('assistant-text').last().textContent(), { timeout: 20_000 })
      .toBe(`The top result is ${topGenres[0].genre} with ${topGenres[0].tracks}.`);
    await byTestId('send-button').waitFor();

    expect(await byTestId('sql-block').count()).toBe(2);
    expect(await tableRows(page, 1)).toEqual(topGenres.map((r) => [r.genre, String(r.tracks)]));
    const turn = sentAfter(before);
    expect(turn.length).toBe(3); // assistant → SQL writer → assistant; no chart was asked for
    expect(new Set(turn.map((r) => r.model))).toEqual(new Set(['openai/gpt-oss-20b']));
    expect(await picker.inputValue()).toBe('gpt-oss-20b');
  });

  it('stops an answer in the middle: the upstream request is closed and the partial text stays', async () => {
    const before = lastSeq();
    await byTestId('message-input').fill(LONG_ANSWER);
    await byTestId('message-input').press('Enter');
    await byTestId('stop-button').waitFor();
    const text = byTestId('assistant-text').nth(2);
    await expect.poll(() => text.textContent().then((t) => (t ?? '').split(' ').length), { timeout: 10_000 }).toBeGreaterThanOrEqual(3);
    await byTestId('stop-button').click();

    await byTestId('stopped-notice').waitFor();
    await byTestId('send-button').waitFor();
    await screenshot(page, '04-chat-stopped');
    expect(await byTestId('stop-button').count()).toBe(0);
    const upstream = sentAfter(before);
    expect(upstream.length).toBe(1);
    // Closing the answer stream aborted the model request upstream.
    await fake.waitFor(() => upstream[0].clientClosed, 5000);
    expect(upstream[0].model).toBe('openai/gpt-oss-20b');
    partialText = (await text.textContent()) ?? '';
    expect(partialText.length).toBeGreaterThan(0);
    expect(SLOW_TEXT.startsWith(partialText)).toBe(true);
    expect(partialText.length).toBeLessThan(SLOW_TEXT.length);
    // Nothing arrives after Stop: the text is what it was once the upstream request was closed.
    expect(await text.textContent()).toBe(partialText);
  });

  it('reopens the thread after a reload, from its URL, with every message, SQL, table and chart', async () => {
    // The server keeps a stopped answer's text; wait until it has written it before reloading.
    // The session is the page's httpOnly cookie; the browser context's request API sends it.
    await expect
      .poll(async () => {
        const res = await context.request.get(`${app.url}/api/chat/${threadId}`);
        const body = (await res.json()) as { messages: { role: string; content: string }[] };
        return body.messages.some((m) => m.role === 'assistant' && m.content.length > 0 && SLOW_TEXT.startsWith(m.content));
      })
      .toBe(true);

    await page.reload();
    expect(new URL(page.url()).pathname).toBe(`/threads/${threadId}`);
    const item = page.locator(`[data-testid="thread-item"][data-thread-id="${threadId}"]`);
    await item.waitFor();
    expect(await item.getAttribute('class')).toContain('active');
    expect(await item.textContent()).toContain(TOP_ARTISTS);

    await expect.poll(() => byTestId('user-message').allTextContents()).toEqual([TOP_ARTISTS, TOP_GENRES, LONG_ANSWER]);
    const texts = await byTestId('assistant-text').allTextContents();
    expect(texts.slice(0, 2)).toEqual([
      `The top result is ${topArtists[0].artist} with ${topArtists[0].tracks}.`,
      `The top result is ${topGenres[0].genre} with ${topGenres[0].tracks}.`,
    ]);
    // The stopped answer kept its text. The server may have sent one more word while the close was
    // on its way, so it can hold at most that one word more than the page showed.
    expect(texts.length).toBe(3);
    expect(texts[2].startsWith(partialText)).toBe(true);
    expect(SLOW_TEXT.startsWith(texts[2])).toBe(true);
    expect(texts[2].split(' ').length).toBeLessThanOrEqual(partialText.split(' ').length + 1);
    expect(await byTestId('sql-block').count()).toBe(2);
    expect(await tableRows(page, 0)).toEqual(topArtists.map((r) => [r.artist, String(r.tracks)]));
    expect(await tableRows(page, 1)).toEqual(topGenres.map((r) => [r.genre, String(r.tracks)]));
    await expect.poll(() => chartBars(page, 0)).toBe(topArtists.length);
    expect(await byTestId('model-picker').inputValue()).toBe('gpt-oss-20b');
    expect(await byTestId('connection-select').inputValue()).toBe(connectionId);

    // The chart's spec is viewable, with the rows the server put in it.
    await byTestId('chart-view-spec').click();
    const spec = JSON.parse((await byTestId('chart-spec').textContent()) ?? '{}') as { mark?: unknown; data?: { values?: unknown[] } };
    expect(spec.mark).toBe('bar');
    expect(spec.data?.values?.length).toBe(topArtists.length);
    await byTestId('chart-view-spec').click();
  });

  it('works by keyboard: focus starts in the composer, Shift+Enter adds a line and Enter sends', async () => {
    await page.goto('/');
    await byTestId('message-input').waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('message-input');
    await page.keyboard.type('SQL: SELECT name FROM artist');
    await page.keyboard.press('Shift+Enter');
    await page.keyboard.type('ORDER BY artist_id LIMIT 3');
    expect(await byTestId('message-input').inputValue()).toBe('SQL: SELECT name FROM artist\nORDER BY artist_id LIMIT 3');
    expect(new URL(page.url()).pathname).toBe('/');
    await page.keyboard.press('Enter');

    // A new thread opens on the last used database and runs the SQL as written, without a model.
    await page.waitForURL(/\/threads\/[^/]+$/);
    expect(new URL(page.url()).pathname).not.toBe(`/threads/${threadId}`);
    const expected = await db.query<{ name: string }>('SELECT name FROM artist ORDER BY artist_id LIMIT 3');
    await expect.poll(() => tableRows(page, 0), { timeout: 10_000 }).toEqual(expected.map((r) => [r.name]));
    expect(await byTestId('assistant-text').count()).toBe(0);

    // On a page without a composer, the first Tab reaches "Skip to content", which moves focus to the screen.
    await page.goto('/connections');
    await byTestId('connection-item').first().waitFor();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('main');
  });

  it('fits a phone screen (390 px): no horizontal scrolling, the sidebar becomes a drawer', async () => {
    await page.setViewportSize(PHONE);
    try {
      await page.goto(`/threads/${threadId}`);
      await expect.poll(() => chartBars(page, 0), { timeout: 10_000 }).toBe(topArtists.length);
      await expectNoHorizontalOverflow(page, 'chat');
      await screenshot(page, '06-phone-chat');
      // The chart is drawn to the width of the message column, not beyond it.
      const chart = byTestId('chart-container').first();
      const [box, svg] = [await chart.boundingBox(), await chart.locator('svg').first().boundingBox()];
      expect(svg!.x + svg!.width).toBeLessThanOrEqual(box!.x + box!.width + 1);
      expect(svg!.width).toBeGreaterThan(box!.width * 0.8);
      await chart.scrollIntoViewIfNeeded();
      await screenshot(page, '06-phone-chart');

      await page.getByRole('button', { name: 'Menu' }).click();
      await expect.poll(() => page.getByRole('button', { name: 'Menu' }).getAttribute('aria-expanded')).toBe('true');
      await byTestId('new-thread').waitFor({ state: 'visible' });
      await expectNoHorizontalOverflow(page, 'drawer');
      await screenshot(page, '06-phone-drawer');

      await byTestId('nav-connections').click();
      await byTestId('connection-item').first().waitFor();
      await expectNoHorizontalOverflow(page, 'connections');
      await screenshot(page, '06-phone-connections');

      await page.goto(`/connections/${connectionId}/schema`);
      await byTestId('schema-browser').waitFor();
      await expectNoHorizontalOverflow(page, 'schema');
    } finally {
      await page.setViewportSize(DESKTOP);
    }
  });

  it('threw no uncaught error in the page during the whole scenario', () => {
    expect(pageErrors).toEqual([]);
  });
});

/** Records, inside the page, every text of the last assistant message and every tool activity shown. */
async function recordStreaming(page: Page): Promise<void> {
  await page.evaluate(() => {
    const record = { texts: [] as string[], activities: [] as string[] };
    (window as unknown as { __e2eStream: typeof record }).__e2eStream = record;
    new MutationObserver(() => {
      const texts = document.querySelectorAll('[data-testid="assistant-text"]');
      const last = texts[texts.length - 1]?.textContent ?? '';
      if (record.texts.at(-1) !== last) record.texts.push(last);
      document.querySelectorAll('[data-testid="tool-activity"]').forEach((el) => {
        const tool = el.getAttribute('data-tool') ?? '';
        if (!record.activities.includes(tool)) record.activities.push(tool);
      });
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
}

function streamingRecord(page: Page): Promise<{ texts: string[]; activities: string[] }> {
  return page.evaluate(() => (window as unknown as { __e2eStream: { texts: string[]; activities: string[] } }).__e2eStream);
}

/** The cells of the n-th results table in the conversation, row by row. */
function tableRows(page: Page, index: number): Promise<string[][]> {
  return page
    .locator('.messages [data-testid="results-table"]')
    .nth(index)
    .locator('tbody tr')
    .evaluateAll((rows) => rows.map((tr) => Array.from(tr.querySelectorAll('td')).map((td) => td.textContent ?? '')));
}

/** Bars drawn in the n-th chart's SVG (0 until vega has rendered it). */
async function chartBars(page: Page, index: number): Promise<number> {
  const container = page.getByTestId('chart-container').nth(index);
  if ((await container.locator('svg').count()) === 0) return 0;
  return container.locator('svg .mark-rect path').count();
}

async function expectNoHorizontalOverflow(page: Page, screen: string): Promise<void> {
  const overflow = await horizontalOverflow(page);
  expect(overflow, `${screen} overflows by ${overflow} px; widest element: ${await widestElement(page)}`).toBe(0);
}
