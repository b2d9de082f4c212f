import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AppServer } from './support/app-server';
import { analystResponder, sharedPath, SQL_WRITER_MARK, startFakeOpenAI, type FakeOpenAI, type FakeRequest } from './support/backend-support';
import { screenshot } from './support/browser';
import { appInBrowser, browserApi, registerInBrowser } from './support/session';

// Issue 11 in a real browser: the owner of a Chinook (SQLite) connection writes its knowledge in the web app
// (instructions, a glossary term, a table note from the schema browser, an example checked by running it), saves
// an answer as an example with one click, reviews a learned correction; the next question's prompts, read from
// the scripted model's request log, carry all of it. Whatever the user typed shows as text, never as HTML.

const GENRES_SQL = 'SELECT g.Name AS genre, COUNT(*) AS tracks FROM Track t JOIN Genre g ON g.GenreId = t.GenreId GROUP BY g.Name ORDER BY tracks DESC, g.Name LIMIT 5';
const ARTISTS_SQL = 'SELECT ar.Name AS artist, COUNT(*) AS albums FROM Artist ar JOIN Album al ON al.ArtistId = ar.ArtistId GROUP BY ar.Name ORDER BY albums DESC, ar.Name LIMIT 5';
const ASKED = 'How many tracks does each genre have?';
const ASKED_AGAIN = 'How many tracks are there in each genre?';
const BY_HAND = 'Which artists have the most albums?';

/** Markup a user might paste; each piece calls a dialog or sets a flag if it ever runs. */
const hostile = (where: string) => `<img src=x onerror="alert('${where}')"><script>window.__pwned='${where}'</script>`;
const INSTRUCTION = `Amounts are in US dollars. ${hostile('instructions')}`;
const TERM = 'Catalogue depth';
const DEFINITION = `Tracks per genre. ${hostile('glossary')}`;
const TABLE_NOTE = `One row per song on sale. ${hostile('table-note')}`;
const COLUMN_NOTE = 'Duration of the song.';
const LEARNED_SQL = 'SELECT g.Name AS genre FROM Track t JOIN Genre g ON g.GenreId = t.GenreId LIMIT 1';
const LESSON = 'Genre names live in Genre.Name; join Track.GenreId to Genre.GenreId.';
const EDITED_LESSON = `Join Track.GenreId to Genre.GenreId for genre names, never Track.Composer. ${hostile('learning')}`;

describe('knowledge in the web app (Chromium, built app, scripted model, Chinook on SQLite)', () => {
  let fake: FakeOpenAI;
  let app: AppServer;
  let page: Page;
  let pageErrors: string[];
  let apiCall: ReturnType<typeof browserApi>;
  let connectionId = '';
  const dialogs: string[] = [];

  const byTestId = (id: string) => page.getByTestId(id);
  const lastSeq = () => fake.requests.at(-1)?.seq ?? 0;
  const session = appInBrowser(() => fake?.close());

  beforeAll(async () => {
    fake = await startFakeOpenAI({
      models: ['qwen/qwen3-8b'],
      responder: analystResponder({ sqlFor: (question) => (question.includes('genre') ? GENRES_SQL : ARTISTS_SQL) }),
    });
    const opened = await session.open({ LM_STUDIO_ENDPOINT: fake.url, SSE_PING_MS: '1000', KNOWLEDGE_EXAMPLES_K: '1' }, fake);
    ({ app, page, pageErrors } = opened);
    apiCall = browserApi(opened.context, app.url);
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    // The first account may use any file under SQLITE_ROOT (DATA_DIR/sqlite by default).
    fs.copyFileSync(sharedPath('sqlite/chinook/Chinook_Sqlite.sqlite'), path.join(app.dataDir, 'sqlite', 'chinook.sqlite'));
  });

  /** Nothing typed into the app ran as markup: no injected image or script, no dialog, no flag. */
  async function expectNothingRan(): Promise<void> {
    expect(await page.locator('img[src="x"], .knowledge script, .schema script').count()).toBe(0);
    expect(await page.evaluate(() => (window as { __pwned?: string }).__pwned)).toBeUndefined();
    expect(dialogs).toEqual([]);
  }

  /** Asks in a new thread on the connection and waits for the scripted answer; returns the thread's id. */
  async function ask(question: string): Promise<string> {
    const threadId = (await apiCall<{ thread_id: string }>('POST', '/chat', { model: 'qwen', connection_id: connectionId })).thread_id;
    await page.goto(`/threads/${threadId}`);
    await byTestId('message-input').fill(question);
    await byTestId('message-input').press('Enter');
    await expect.poll(() => byTestId('assistant-text').last().textContent(), { timeout: 30_000 }).toMatch(/^The top result is /);
    return threadId;
  }

  it('connects Chinook (a SQLite file under SQLITE_ROOT) and opens its Knowledge page from the connections list', async () => {
    await registerInBrowser(page, 'knowledge');
    await byTestId('nav-connections').click();
    await byTestId('connection-new').click();
    await byTestId('conn-dialect-sqlite').click();
    await page.locator('select[data-testid="conn-sqlite-file"]').selectOption('chinook.sqlite');
    await byTestId('conn-name').fill('Chinook');
    await byTestId('conn-save').click();
    await page.locator('[data-testid="connection-test-result"][data-ok="true"]').waitFor();
    connectionId = /\/connections\/([^/]+)\/edit$/.exec(new URL(page.url()).pathname)?.[1] ?? '';
    expect(connectionId).not.toBe('');
    await byTestId('nav-connections').click();
    await page.locator(`[data-testid="connection-item"][data-connection-id="${connectionId}"]`).getByTestId('connection-knowledge').click();
    await byTestId('knowledge-page').waitFor();
    expect(new URL(page.url()).pathname).toContain(connectionId);
    await expect.poll(() => page.locator('.crumbs').textContent()).toContain('Chinook');
  });

  it('saves instructions with markup in them, shown back as the text typed', async () => {
    await byTestId('knowledge-instructions').fill(INSTRUCTION);
    await byTestId('knowledge-instructions-save').click();
    await byTestId('knowledge-instructions-saved').waitFor();
    await page.reload();
    await expect.poll(() => byTestId('knowledge-instructions').inputValue()).toBe(INSTRUCTION);
    expect((await apiCall<{ text: string }>('GET', `/connections/${connectionId}/knowledge/instructions`)).text).toBe(INSTRUCTION);
    await expectNothingRan();
  });

  it('adds a glossary term whose definition shows as text', async () => {
    await byTestId('glossary-add').click();
    await byTestId('glossary-term').fill(TERM);
    await byTestId('glossary-unit').fill('tracks');
    await byTestId('glossary-definition').fill(DEFINITION);
    await byTestId('glossary-save').click();
    await expect.poll(() => byTestId('glossary-item-term').allTextContents()).toEqual([TERM]);
    expect(await byTestId('glossary-item-definition').textContent()).toBe(DEFINITION);
    await expectNothingRan();
  });

  it('adds a table note and a column note from the schema browser', async () => {
    await page.getByRole('link', { name: 'schema browser' }).click();
    await byTestId('schema-browser').waitFor();
    await byTestId('schema-table').filter({ has: page.locator('.table-name', { hasText: /^(main\.)?Track$/ }) }).click();
    await byTestId('table-notes-edit').click();
    await byTestId('table-notes-description-input').fill(TABLE_NOTE);
    await page.locator('[data-testid="table-notes-column"][data-column="Milliseconds"]').fill(COLUMN_NOTE);
    await byTestId('table-notes-save').click();
    await expect.poll(() => byTestId('table-notes-description').textContent()).toBe(TABLE_NOTE);
    // The column note shows in the columns table, and everything survives a reload.
    await page.reload();
    await byTestId('schema-table').filter({ has: page.locator('.table-name', { hasText: /^(main\.)?Track$/ }) }).click();
    await expect.poll(() => byTestId('table-notes-description').textContent()).toBe(TABLE_NOTE);
    expect(await byTestId('schema-columns').textContent()).toContain(COLUMN_NOTE);
    await expectNothingRan();
    await screenshot(page, 'knowledge-01-table-note');
  });

  it('adds an example by hand only once its SQL runs', async () => {
    await byTestId('schema-knowledge').click();
    await byTestId('knowledge-page').waitFor();
    await byTestId('example-add').click();
    await byTestId('example-question').fill(BY_HAND);
    await byTestId('example-sql').fill('SELECT ar.Name, COUNT(*) FROM Artists ar GROUP BY ar.Name');
    await byTestId('example-save').click();
    // The query ran and failed (there is no table "Artists"): nothing is kept, the error says why.
    await expect.poll(() => byTestId('example-error').textContent()).toMatch(/Artists/);
    expect(await byTestId('example-item').count()).toBe(0);

    await byTestId('example-sql').fill(ARTISTS_SQL);
    await byTestId('example-save').click();
    await expect.poll(() => byTestId('example-item-question').allTextContents()).toEqual([BY_HAND]);
    expect(await byTestId('example-item-meta').textContent()).toContain('added by hand');
    const stored = (await apiCall<{ question: string; sql: string; source: string }[]>('GET', `/connections/${connectionId}/knowledge/examples`)).map((e) => [e.question, e.sql, e.source]);
    expect(stored).toEqual([[BY_HAND, ARTISTS_SQL, 'manual']]);
  });

  it('saves an answer as an example with one click, and lists it', async () => {
    await ask(ASKED);
    await byTestId('save-example').click();
    await byTestId('save-example-done').waitFor({ timeout: 20_000 });
    await screenshot(page, 'knowledge-02-saved-as-example');
    await byTestId('save-example-done').getByRole('link').click();
    await byTestId('knowledge-page').waitFor();
    await expect.poll(() => byTestId('example-item-question').allTextContents()).toEqual(expect.arrayContaining([ASKED, BY_HAND]));
    const saved = byTestId('example-item').filter({ has: page.getByTestId('example-item-question').getByText(ASKED, { exact: true }) });
    expect(await saved.getByTestId('example-item-meta').textContent()).toContain('from an answer');
    expect(await saved.getByTestId('sql-block').textContent()).toContain('JOIN Genre g ON g.GenreId = t.GenreId');
  });

  it('edits a learned correction (seeded through the import API) in the web app', async () => {
    const file = {
      format: 'aigis.knowledge',
      version: 1,
      learnings: [{ category: 'join_pattern', tables: ['Track', 'Genre'], failed_sql: 'SELECT Genre FROM Track', working_sql: LEARNED_SQL, lesson: LESSON, confidence: 2 }],
    };
    expect((await apiCall<{ learnings: { added: number } }>('POST', `/connections/${connectionId}/knowledge/import?mode=merge`, file)).learnings.added).toBe(1);
    await page.reload();
    await expect.poll(() => byTestId('correction-lesson').allTextContents()).toEqual([LESSON]);
    await byTestId('correction-edit').click();
    await byTestId('correction-lesson-input').fill(EDITED_LESSON);
    await byTestId('correction-save').click();
    await expect.poll(() => byTestId('correction-lesson').allTextContents()).toEqual([EDITED_LESSON]);
    const learnings = await apiCall<{ lesson: string; confidence: number }[]>('GET', `/connections/${connectionId}/knowledge/learnings`);
    expect(learnings.map((l) => [l.lesson, l.confidence])).toEqual([[EDITED_LESSON, 2]]);
    await expectNothingRan();
    await screenshot(page, 'knowledge-03-page', { fullPage: true });
  });

  it("puts the instructions, the notes, the correction and the matching example into the next question's prompts", async () => {
    const before = lastSeq();
    await ask(ASKED_AGAIN);
    const sent = fake.completions().filter((r) => r.seq > before);
    const writer = sent.find((r) => r.system.includes(SQL_WRITER_MARK));
    const assistant = sent.find((r) => r.tools.length > 0);
    expect(writer, 'the SQL writer was asked').toBeDefined();
    expect(assistant, 'the assistant was asked').toBeDefined();
    for (const prompt of [assistant!.system, writer!.system]) {
      expect(prompt).toContain('Amounts are in US dollars.');
      expect(prompt).toContain(`${TERM}: Tracks per genre.`);
      // Table and column notes are shown with their table in the schema.
      expect(prompt).toContain('## Track (table, ~3503 rows)\nNote: One row per song on sale.');
      expect(prompt).toContain(`- Milliseconds INTEGER NOT NULL — note: ${COLUMN_NOTE}`);
      expect(prompt).toContain('never Track.Composer');
      expect(prompt).not.toContain(LESSON);
    }
    // KNOWLEDGE_EXAMPLES_K=1: the saved answer, which matches the question, and not the artists example.
    expect(examplesOf(writer!)).toContain(GENRES_SQL);
    expect(examplesOf(writer!)).toContain(ASKED);
    expect(writer!.system).not.toContain(ARTISTS_SQL);
    expect(assistant!.system).not.toContain('<example_queries>');
  });

  it('deletes the correction, and it leaves the prompts', async () => {
    await page.goto(`/connections/${connectionId}/knowledge`);
    await byTestId('correction-delete').click();
    await byTestId('correction-delete-confirm').click();
    await expect.poll(() => byTestId('correction-item').count()).toBe(0);
    expect(await apiCall('GET', `/connections/${connectionId}/knowledge/learnings`)).toEqual([]);
    const before = lastSeq();
    await ask(ASKED_AGAIN);
    const prompts = fake
      .completions()
      .filter((r) => r.seq > before)
      .map((r) => r.system);
    expect(prompts.length).toBeGreaterThan(0);
    for (const prompt of prompts) expect(prompt).not.toContain('never Track.Composer');
    expect(prompts.some((p) => p.includes('Amounts are in US dollars.'))).toBe(true);
  });

  it('threw no uncaught error and ran nothing the user typed', async () => {
    await expectNothingRan();
    expect(pageErrors).toEqual([]);
  });
});

/** The example block of a SQL writer's system prompt ('' when there is none). */
function examplesOf(request: FakeRequest): string {
  return /<example_queries>[\s\S]*<\/example_queries>/.exec(request.system)?.[0] ?? '';
}
