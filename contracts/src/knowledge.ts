/**
 * A connection's knowledge (HTTP API under /api/connections/:id/knowledge): what its owner teaches the
 * assistant about this database. Only the connection's owner reads or changes it (another user gets 404).
 */

/** The longest each field may be, in characters (the API answers 400 VALIDATION_FAILED beyond them). */
export const KNOWLEDGE_FIELD_LIMITS = {
  /** Instructions: free text, always in the prompt. */
  instructions: 8000,
  term: 200,
  /** Definitions, descriptions, notes, questions, lessons. */
  text: 2000,
  sql: 20_000,
  unit: 100,
  /** Caveats per term, data-quality notes per table. */
  listItems: 20,
  /** Table, schema and column names. */
  name: 256,
  /** Column notes per table; tables per learning. */
  columns: 500,
  /** A learning's confidence (times recorded) stops rising here. */
  confidence: 1000,
} as const;

/** GET|PUT /api/connections/:id/knowledge/instructions `{text}`. */
export interface KnowledgeInstructions {
  text: string;
  /** Null: never written. */
  updated_at: string | null;
}

/** A business term (seed 000's "knowledge entry"): e.g. MRR, with how to compute it. */
export interface GlossaryEntry {
  id: string;
  term: string;
  definition: string;
  sql: string | null;
  unit: string | null;
  caveats: string[];
  created_at: string;
  updated_at: string;
}

/** Notes on one table (and its columns), shown in the prompt's schema and by describe_table. */
export interface TableNote {
  id: string;
  /** Null where the dialect has no schemas to name (SQLite) or the table lives in the default one. */
  schema: string | null;
  table: string;
  description: string | null;
  /** Column name → note. */
  columns: Record<string, string>;
  data_quality: string[];
  updated_at: string;
}

/** What running an example's SQL returned when it was saved (the proof that it runs). */
export interface ExampleVerification {
  row_count: number;
  columns: string[];
  elapsed_ms: number;
  verified_at: string;
}

/** A question with the SQL that answers it; the most similar ones go into the SQL writer's prompt. */
export interface ExampleQuery {
  id: string;
  question: string;
  sql: string;
  /** 'manual': added by hand; 'answer': saved from an answer ("Save as example"); 'import': from a knowledge file. */
  source: 'manual' | 'answer' | 'import';
  /** The thread it was saved from (source 'answer'). */
  thread_id: string | null;
  verification: ExampleVerification;
  created_at: string;
  updated_at: string;
}

export const LEARNING_CATEGORIES = [
  'type_mismatch',
  'filter_required',
  'join_pattern',
  'aggregation',
  'naming',
  'data_quality',
  'business_logic',
  'other',
] as const;
export type LearningCategory = (typeof LEARNING_CATEGORIES)[number];

/** A correction the assistant learned (its save_learning tool): a query failed and a corrected one worked. */
export interface Learning {
  id: string;
  category: LearningCategory;
  tables: string[];
  failed_sql: string | null;
  working_sql: string;
  lesson: string;
  /** How many times it was recorded (a repeat raises it instead of adding a copy); the highest go into prompts. */
  confidence: number;
  thread_id: string | null;
  created_at: string;
  updated_at: string;
}

/** GET /api/connections/:id/knowledge: everything at once. */
export interface ConnectionKnowledge {
  connection_id: string;
  instructions: KnowledgeInstructions;
  glossary: GlossaryEntry[];
  tables: TableNote[];
  examples: ExampleQuery[];
  learnings: Learning[];
}

/** Version of the knowledge file format (GET /knowledge/export, POST /knowledge/import). */
export const KNOWLEDGE_FORMAT = 'aigis.knowledge';
export const KNOWLEDGE_FORMAT_VERSION = 1;

/**
 * POST /api/connections/:id/knowledge/import?mode=merge|replace (default merge). `replace` removes this
 * connection's knowledge first; `merge` keeps it, the file winning for the same glossary term or table, the
 * same example skipped, the same learning keeping the higher confidence. Examples whose SQL the guard refuses
 * or that fail to run on this connection are not imported and are listed in `rejected_examples`.
 */
export interface KnowledgeImportResult {
  mode: 'merge' | 'replace';
  instructions: 'kept' | 'replaced' | 'appended';
  glossary: { added: number; updated: number };
  tables: { added: number; updated: number };
  examples: { added: number; skipped: number; rejected: number };
  learnings: { added: number; merged: number };
  rejected_examples: { index: number; question: string; code: string; message: string }[];
}
