import type { ExampleQuery, GlossaryEntry, Learning, LearningCategory, TableNote } from '@aigis/contracts';
import type { KnowledgeExamplesTable, KnowledgeGlossaryTable, KnowledgeLearningsTable, KnowledgeTableNotesTable } from '../storage/schema.js';

/** Stored JSON read defensively: anything unreadable or of the wrong shape reads as the fallback. */
function readJson<T>(stored: string | null | undefined, fallback: T, accept: (value: unknown) => value is T): T {
  try {
    const value: unknown = JSON.parse(stored ?? '');
    return accept(value) ? value : fallback;
  } catch {
    return fallback;
  }
}

const isStringList = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');
const isStringMap = (v: unknown): v is Record<string, string> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && Object.values(v).every((x) => typeof x === 'string');

export const readList = (stored: string | null | undefined): string[] => readJson(stored, [], isStringList);
export const readMap = (stored: string | null | undefined): Record<string, string> => readJson(stored, {}, isStringMap);

export function toGlossaryEntry(row: KnowledgeGlossaryTable): GlossaryEntry {
  return {
    id: row.id,
    term: row.term,
    definition: row.definition,
    sql: row.sql,
    unit: row.unit,
    caveats: readList(row.caveats),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export function toTableNote(row: KnowledgeTableNotesTable): TableNote {
  return {
    id: row.id,
    schema: row.schema_name === '' ? null : row.schema_name,
    table: row.table_name,
    description: row.description,
    columns: readMap(row.column_notes),
    data_quality: readList(row.data_quality),
    updated_at: row.updated_at,
  };
}

export function toExample(row: KnowledgeExamplesTable): ExampleQuery {
  return {
    id: row.id,
    question: row.question,
    sql: row.sql,
    source: row.source as ExampleQuery['source'],
    thread_id: row.thread_id,
    verification: { row_count: row.row_count, columns: readList(row.columns), elapsed_ms: row.elapsed_ms, verified_at: row.verified_at },
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export function toLearning(row: KnowledgeLearningsTable): Learning {
  return {
    id: row.id,
    category: row.category as LearningCategory,
    tables: readList(row.tables),
    failed_sql: row.failed_sql,
    working_sql: row.working_sql,
    lesson: row.lesson,
    confidence: row.confidence,
    thread_id: row.thread_id,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
