/**
 * What the browser tests share with the API's tests (`@aigis/test-support`): the scripted OpenAI-compatible
 * upstream, the analyst script, scratch PostgreSQL databases and the shared test data. One place, so the
 * browser tests use exactly what the API tests use.
 */
export { reply, startFakeOpenAI, type FakeOpenAI, type FakeRequest } from '@aigis/test-support/fake-openai';
export { analystResponder, CHART_WRITER_MARK, firstResultRow, SQL_WRITER_MARK } from '@aigis/test-support/scripted-analyst';
export { createPgDatabase, loadPgChinook, type PgDatabase } from '@aigis/test-support/databases';
export { sharedPath } from '@aigis/test-support/env';
