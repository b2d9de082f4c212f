/**
 * The backend's test support, imported from its TypeScript sources (they have no decorators, so
 * vitest transforms them as they are): the scripted OpenAI-compatible upstream, the analyst script
 * and the real-database fixtures. One place, so the browser tests use exactly what the API tests use.
 */
export { reply, startFakeOpenAI, type FakeOpenAI, type FakeRequest, type FakeResponse } from '../../../backend/test/support/fake-openai';
export { analystResponder, CHART_WRITER_MARK, firstResultRow, SQL_WRITER_MARK } from '../../../backend/test/support/scripted-analyst';
export { createPgDatabase, loadPgChinook, type PgDatabase } from '../../../backend/test/support/fixtures';
export { SHARED_DATA, TEST_PG_URL } from '../../../backend/test/support/env';
