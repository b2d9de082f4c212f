import type { SchemaTable } from '@aigis/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DialectAdapter } from '../src/connections/dialects/dialect-adapter.js';
import { createAdapter } from '../src/connections/dialects/index.js';
import { describeTableMarkdown, renderSchemaMarkdown } from '../src/connections/introspection/schema-markdown.js';
import { schemaForQuestion } from '../src/connections/introspection/schema-selection.js';
import { buildRelevanceIndex, rankTables, type RelevanceIndex } from '../src/connections/introspection/table-relevance.js';
import { createPgDatabase, loadMusicBrainz, loadSpiderDePg } from './support/fixtures.js';

/**
 * Large schemas in the prompt: beyond the budget, the tables a question is about are given in full (columns,
 * keys, samples), the rest by name. Real schemas: spider_de_all (845 tables, 163 schemas, German, 109 non-ASCII
 * names) and MusicBrainz (516 tables in 9 schemas), introspected from PostgreSQL.
 */
const BUDGET = 24_000;
let spider: RelevanceIndex;
let musicbrainz: RelevanceIndex;
const adapters: DialectAdapter[] = [];
const drops: (() => Promise<void>)[] = [];

async function introspect(load: (db: Awaited<ReturnType<typeof createPgDatabase>>) => Promise<void>, label: string): Promise<SchemaTable[]> {
  const db = await createPgDatabase(label);
  drops.push(db.drop);
  await load(db);
  const adapter = createAdapter(db.target({ id: `sel-${label}` }), { connectTimeoutMs: 5000, poolMax: 4 });
  adapters.push(adapter);
  return (await adapter.introspect({ sampleRows: 3, sampleConcurrency: 8, sampleTimeoutMs: 10_000 })).tables;
}

beforeAll(async () => {
  const [sde, mb] = await Promise.all([introspect(loadSpiderDePg, 'selsde'), introspect(loadMusicBrainz, 'selmb')]);
  spider = buildRelevanceIndex(sde);
  musicbrainz = buildRelevanceIndex(mb);
}, 240_000);

afterAll(async () => {
  await Promise.all(adapters.map((a) => a.close()));
  await Promise.all(drops.map((drop) => drop()));
});

function detailedNames(index: RelevanceIndex, question: string): string[] {
  return schemaForQuestion(index, question, { dialect: 'postgres', budgetChars: BUDGET }).detailed.map((t) => `${t.schema}.${t.name}`);
}

describe('tables a question names reach the prompt in full', () => {
  it('spider_de_all: the whole schema does not fit, so the prompt is selected per question', () => {
    expect(spider.tables).toHaveLength(845);
    expect(renderSchemaMarkdown(spider.tables, { dialect: 'postgres', budgetChars: BUDGET }).markdown_mode).toBe('compact');
  });

  const spiderCases: [question: string, tables: string[]][] = [
    ['Wie viele Zeilen hat academic.publikation_schlüsselwort?', ['academic.publikation_schlüsselwort']],
    ['Liste jede aktivität aus activity_1."aktivität" mit der Anzahl der Studenten aus activity_1.beteiligt_sich_an', ['activity_1.aktivität', 'activity_1.beteiligt_sich_an']],
    ['Welche Flugzeuge (aircraft.flugzeug) gibt es?', ['aircraft.flugzeug']],
    ['Zeige bike_1.wetter für die wärmsten Tage', ['bike_1.wetter']],
    ['How many rows are in "behavior_monitoring"."schüler_beim_nachsitzen"?', ['behavior_monitoring.schüler_beim_nachsitzen']],
    ['Vergleiche gas_company.tankstelle mit gas_company.bahnhofsgesellschaft', ['gas_company.tankstelle', 'gas_company.bahnhofsgesellschaft']],
  ];
  it.each(spiderCases)('spider_de_all: %s', (question, tables) => {
    const result = schemaForQuestion(spider, question, { dialect: 'postgres', budgetChars: BUDGET });
    expect(result.markdown_mode).toBe('selected');
    expect(result.markdown.length).toBeLessThanOrEqual(BUDGET);
    const detailed = result.detailed.map((t) => `${t.schema}.${t.name}`);
    for (const name of tables) {
      expect(detailed, question).toContain(name);
      // In full: the same lines describe_table would give for its columns.
      const table = spider.tables.find((t) => `${t.schema}.${t.name}` === name)!;
      const firstColumn = describeTableMarkdown(table, { dialect: 'postgres' }).split('\n').find((line) => line.startsWith('- '))!;
      expect(result.markdown).toContain(firstColumn.split(' — ')[0]!.split(' DEFAULT ')[0]!);
    }
    // Every other table is still listed by name (or counted), for describe_table.
    expect(result.markdown).toMatch(/Other tables \(call describe_table/);
  });

  it('spider_de_all: a question in words (no table names) ranks the tables whose words it uses first', () => {
    const ranked = rankTables(spider, 'Welche Schlüsselwörter haben die Publikationen?').slice(0, 5).map((r) => `${r.table.schema}.${r.table.name}`);
    expect(ranked.some((name) => /schlüsselwort/.test(name))).toBe(true);
    const weather = rankTables(spider, 'Wie war das Wetter an den Tagen mit Regen?').slice(0, 3).map((r) => r.table.name);
    expect(weather).toContain('wetter');
  });

  it('spider_de_all: the tables rendered for earlier questions (kept per schema) give the same prompt as a fresh render', () => {
    const questions = ['Welche Flugzeuge (aircraft.flugzeug) gibt es?', 'Zeige bike_1.wetter für die wärmsten Tage', 'Wie viele Piloten fliegen Flugzeuge?'];
    const options = { dialect: 'postgres' as const, budgetChars: BUDGET };
    const warm = questions.map((q) => schemaForQuestion(spider, q, options).markdown);
    // A copy of the table list has no kept renderings: everything is rendered anew.
    const fresh = buildRelevanceIndex([...spider.tables]);
    for (const [i, q] of questions.entries()) {
      expect(schemaForQuestion(spider, q, options).markdown, q).toBe(warm[i]);
      expect(schemaForQuestion(fresh, q, options).markdown, q).toBe(warm[i]);
    }
    expect(new Set(warm).size).toBe(3);
    // A table whose note changed is rendered again with the new note.
    const flugzeug = spider.tables.find((t) => t.schema === 'aircraft' && t.name === 'flugzeug')!;
    const withNote = (description: string) =>
      schemaForQuestion(spider, questions[0]!, { ...options, notes: new Map([[flugzeug, { description, columns: {}, data_quality: [] }]]) }).markdown;
    expect(withNote('Nur Passagierflugzeuge.')).toContain('Note: Nur Passagierflugzeuge.');
    const edited = withNote('Auch Frachtflugzeuge.');
    expect(edited).toContain('Note: Auch Frachtflugzeuge.');
    expect(edited).not.toContain('Passagierflugzeuge');
    expect(schemaForQuestion(spider, questions[0]!, options).markdown).toBe(warm[0]);
  });

  const mbCases: [question: string, tables: string[]][] = [
    ['How many recordings does each artist have? Use musicbrainz.recording and musicbrainz.artist_credit_name', ['musicbrainz.recording', 'musicbrainz.artist_credit_name']],
    ['Which releases came out in 1990? (musicbrainz.release, musicbrainz.release_country)', ['musicbrainz.release', 'musicbrainz.release_country']],
    ['List the rows of musicbrainz.artist', ['musicbrainz.artist']],
  ];
  it.each(mbCases)('MusicBrainz: %s', (question, tables) => {
    expect(musicbrainz.tables.length).toBeGreaterThanOrEqual(516);
    const detailed = detailedNames(musicbrainz, question);
    for (const name of tables) expect(detailed, question).toContain(name);
  });

  it('MusicBrainz: the tables a named table points to follow it in full (a join needs both sides)', () => {
    const detailed = detailedNames(musicbrainz, 'Count musicbrainz.recording rows');
    const recording = musicbrainz.tables.find((t) => t.schema === 'musicbrainz' && t.name === 'recording')!;
    const referenced = recording.foreign_keys.map((fk) => `${fk.referenced_schema}.${fk.referenced_table}`);
    expect(referenced.length).toBeGreaterThan(0);
    for (const name of referenced) expect(detailed).toContain(name);
  });

  it('a schema that fits is not narrowed', () => {
    const small = buildRelevanceIndex(spider.tables.filter((t) => t.schema === 'activity_1'));
    expect(renderSchemaMarkdown(small.tables, { dialect: 'postgres', budgetChars: BUDGET }).markdown_mode).toBe('full');
  });
});
