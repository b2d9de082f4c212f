import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedPath } from '@aigis/test-support/env';
import { reply, startFakeOpenAI, type FakeOpenAI, type Responder } from '@aigis/test-support/fake-openai';
import { ApiClient } from './support/api-client.js';
import { connectionFields, createMysqlDatabase, createPgDatabase, loadMysqlChinook, loadPgChinook, type MysqlDatabase, type PgDatabase } from './support/fixtures.js';
import { streamMessage } from './support/sse-client.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/** Chinook as each dialect names it, and how the API connects to it. */
interface DialectCase {
  dialect: 'sqlite' | 'postgres' | 'mysql';
  track: string;
  milliseconds: string;
  employee: string;
  genresSql: string;
  connection(): Record<string, unknown>;
}

let pgDb: PgDatabase;
let myDb: MysqlDatabase;
const sqliteRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'aigis-knowledge-dialects-'));

const CASES: DialectCase[] = [
  {
    dialect: 'sqlite',
    track: 'Track',
    milliseconds: 'Milliseconds',
    employee: 'Employee',
    genresSql: 'SELECT g.Name AS genre, COUNT(*) AS tracks FROM Track t JOIN Genre g ON g.GenreId = t.GenreId GROUP BY g.Name ORDER BY tracks DESC',
    connection: () => ({ dialect: 'sqlite', database: 'chinook.sqlite' }),
  },
  {
    dialect: 'postgres',
    track: 'track',
    milliseconds: 'milliseconds',
    employee: 'employee',
    genresSql: 'SELECT g.name AS genre, COUNT(*) AS tracks FROM track t JOIN genre g ON g.genre_id = t.genre_id GROUP BY g.name ORDER BY tracks DESC',
    connection: () => connectionFields(pgDb.target()),
  },
  {
    dialect: 'mysql',
    track: 'Track',
    milliseconds: 'Milliseconds',
    employee: 'Employee',
    genresSql: 'SELECT g.Name AS genre, COUNT(*) AS tracks FROM Track t JOIN Genre g ON g.GenreId = t.GenreId GROUP BY g.Name ORDER BY tracks DESC',
    connection: () => connectionFields(myDb.target()),
  },
];

/**
 * What reaches the model's prompts of a connection's knowledge, and the table policy's refusals, on Chinook in real
 * SQLite, PostgreSQL and MariaDB (the scripted model's request log): the owner's notes block, the example for the
 * question, the table and column notes inline in the schema and in describe_table; an excluded table is in no
 * prompt (nor its note), and a query on it is refused by the guard with its name.
 */
describe('knowledge in the prompts on every dialect', () => {
  let model: FakeOpenAI;
  let app: TestApp;
  let api: ApiClient;

  beforeAll(async () => {
    fs.copyFileSync(sharedPath('sqlite/chinook/Chinook_Sqlite.sqlite'), path.join(sqliteRoot, 'chinook.sqlite'));
    [pgDb, myDb] = await Promise.all([createPgDatabase('kprompt'), createMysqlDatabase('kprompt')]);
    await Promise.all([loadPgChinook(pgDb), loadMysqlChinook(myDb)]);
    model = await startFakeOpenAI({ models: ['deepseek-chat'] });
    app = await startTestApp({ DEEPSEEK_API_KEY: 'sk-x', DEEPSEEK_BASE_URL: model.url, SQLITE_ROOT: sqliteRoot });
    api = new ApiClient(app.url);
    await api.register();
  }, 180_000);

  afterAll(async () => {
    await app?.close();
    await model?.close();
    await Promise.all([pgDb?.drop(), myDb?.drop()]);
    fs.rmSync(sqliteRoot, { recursive: true, force: true });
  });

  describe.each(CASES)('$dialect', (c) => {
    let connectionId: string;
    const heading = (table: string) => new RegExp(`^## "?${table}"?\\b`, 'im');

    beforeAll(async () => {
      const created = await api.post('/api/connections', { name: `Chinook ${c.dialect}`, ...c.connection(), excluded_tables: [c.employee.toLowerCase()] });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      connectionId = created.body.id;
      const k = `/api/connections/${connectionId}/knowledge`;
      expect((await api.put(`${k}/instructions`, { text: `Always report amounts in US dollars (${c.dialect}).` })).status).toBe(200);
      expect((await api.post(`${k}/glossary`, { term: 'Catalogue depth', definition: 'Tracks per genre.', unit: 'tracks' })).status).toBe(201);
      expect(
        (await api.put(`${k}/tables`, { table: c.track, description: 'One row per song on sale.', columns: { [c.milliseconds]: 'Duration of the song.' }, data_quality: ['Composer is often empty.'] }))
          .status,
      ).toBe(200);
      // A note on the excluded table: it must reach no prompt.
      expect((await api.put(`${k}/tables`, { table: c.employee, description: 'NOTE-EMP staff with home addresses.' })).status).toBe(200);
      expect((await api.post(`${k}/examples`, { question: 'How many tracks are there per genre?', sql: c.genresSql })).status).toBe(201);
    });

    /** One turn in a new thread with the scripted model; returns the tool results and every request of the turn. */
    async function turn(responder: Responder) {
      const threadId = (await api.post('/api/chat', { model: 'deepseek' })).body.thread_id;
      expect((await api.post(`/api/chat/${threadId}/connection`, { connection_id: connectionId })).status).toBeLessThan(300);
      model.reset();
      model.script(responder);
      const answer = await streamMessage(app.url, api.token!, threadId, 'How deep is the catalogue per genre?');
      const results = answer.events.filter((e) => e.type === 'tool_result').map((e) => (e as unknown as { data: { name: string; content: Record<string, unknown> } }).data);
      return { results, requests: model.completions() };
    }

    it("puts the owner's notes in both prompts, the example in the SQL writer's, and the table notes inline in the schema; the excluded table in none", async () => {
      const { results, requests } = await turn((request) => {
        if (request.tools.length === 0) return reply.text(`\`\`\`sql\n${c.genresSql}\n\`\`\``);
        if (request.lastMessage?.role === 'user') return reply.toolCalls({ name: 'ask_database', args: { question: 'How many tracks does each genre have?' } });
        return reply.text('Rock leads.');
      });
      expect(results[0]?.content).toMatchObject({ type: 'sql_result', row_count: 25 });
      const assistant = requests.find((r) => r.tools.length > 0)!.system;
      const writer = requests.find((r) => r.tools.length === 0)!.system;
      for (const prompt of [assistant, writer]) {
        expect(prompt).toMatch(new RegExp(`<connection_notes>[\\s\\S]*Always report amounts in US dollars \\(${c.dialect}\\)\\.[\\s\\S]*</connection_notes>`));
        expect(prompt).toContain('Catalogue depth: Tracks per genre.');
        // The table and column notes: with their table in the schema, once, not in the notes block.
        expect(prompt).toMatch(new RegExp(`^## "?${c.track}"? \\(table[^\\n]*\\)\\nNote: One row per song on sale\\.$`, 'm'));
        expect(prompt).toMatch(new RegExp(`^- "?${c.milliseconds}"? [^\\n]* — note: Duration of the song\\.$`, 'm'));
        expect(prompt).toContain('Data quality: Composer is often empty.');
        expect(prompt.match(/One row per song on sale/g)).toHaveLength(1);
        // The excluded table: no heading, no foreign key to it, not its note.
        expect(prompt).toMatch(heading(c.track));
        expect(prompt).not.toMatch(heading(c.employee));
        expect(prompt).not.toMatch(new RegExp(`→ "?${c.employee}"?\\.`, 'i'));
        expect(prompt).not.toContain('NOTE-EMP');
      }
      expect(writer).toContain(`SQL: ${c.genresSql}`);
      expect(assistant).not.toContain('<example_queries>');
    });

    it('refuses a query on the excluded table with its name, at every try', async () => {
      const employeeSql = `SELECT * FROM ${c.employee}`;
      const { results, requests } = await turn((request) => {
        if (request.tools.length === 0) return reply.text(`\`\`\`sql\n${employeeSql}\n\`\`\``);
        if (request.lastMessage?.role === 'user') return reply.toolCalls({ name: 'ask_database', args: { question: 'Who are the employees?' } });
        return reply.text('Not allowed.');
      });
      const refused = results[0]!.content;
      expect(refused).toMatchObject({ type: 'error', code: 'SQL_REJECTED', sql: employeeSql });
      expect(String(refused.message)).toMatch(new RegExp(`table ${c.employee} is excluded on this connection`, 'i'));
      // The SQL writer was told why, with the name, after each try.
      const writers = requests.filter((r) => r.tools.length === 0);
      expect(writers.length).toBeGreaterThan(1);
      for (const w of writers.slice(1)) expect(w.lastContent).toMatch(new RegExp(`${c.employee} is excluded`, 'i'));
    });

    it("describe_table gives the table's notes, and does not know the excluded table", async () => {
      const { results } = await turn((request) => {
        if (request.lastMessage?.role === 'user') return reply.toolCalls([{ name: 'describe_table', args: { table: c.track } }, { name: 'describe_table', args: { table: c.employee } }]);
        return reply.text('Described.');
      });
      const [track, employee] = results.map((r) => r.content);
      expect(track).toMatchObject({ type: 'text' });
      // MariaDB's describe_table qualifies the name with the database.
      expect(String(track!.text)).toMatch(new RegExp(`^## (?:[\\w\`]+\\.)?"?${c.track}"? \\(table[^\\n]*\\)\\nNote: One row per song on sale\\.`));
      expect(String(track!.text)).toMatch(new RegExp(`- "?${c.milliseconds}"? [^\\n]* — note: Duration of the song\\.`));
      expect(String(track!.text)).toContain('Data quality: Composer is often empty.');
      expect(employee).toMatchObject({ type: 'error', code: 'NOT_FOUND' });
      expect(JSON.stringify(employee)).not.toContain('NOTE-EMP');
    });
  });
});
