/** Request bodies of /api/connections/:id/knowledge: the API validates with them, the web app sends their input types. */
import { z } from 'zod';
import { KNOWLEDGE_FIELD_LIMITS as L, KNOWLEDGE_FORMAT, KNOWLEDGE_FORMAT_VERSION, LEARNING_CATEGORIES, type LearningCategory } from '../knowledge.js';

// Control characters other than tab and newline have no place in text a person writes (and could hide text).
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

const text = (max: number) =>
  z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(max, `must be at most ${max.toLocaleString('en')} characters`)
    .refine((v) => !CONTROL.test(v), 'must not contain control characters');

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `must be at most ${max.toLocaleString('en')} characters`)
    .refine((v) => !CONTROL.test(v), 'must not contain control characters')
    .nullable()
    .optional()
    // Empty means none; absent (undefined) stays absent, so a PATCH without the field leaves it alone.
    .transform((v) => (v === '' ? null : v));

const list = (what: string) => z.array(text(L.text)).max(L.listItems, `at most ${L.listItems} ${what}`).default([]);
const name = text(L.name).refine((v) => !/[\r\n\t]/.test(v), 'must be one line');
const sql = text(L.sql);

export const instructionsSchema = z
  .object({ text: z.string().trim().max(L.instructions, `must be at most ${L.instructions.toLocaleString('en')} characters`).refine((v) => !CONTROL.test(v), 'must not contain control characters') })
  .strict();
/** PUT /knowledge/instructions. */
export type InstructionsRequest = z.input<typeof instructionsSchema>;
export type InstructionsInput = z.output<typeof instructionsSchema>;

export const glossaryEntrySchema = z
  .object({
    term: text(L.term).refine((v) => !/[\r\n]/.test(v), 'must be one line'),
    definition: text(L.text),
    sql: optionalText(L.sql),
    unit: optionalText(L.unit),
    caveats: list('caveats'),
  })
  .strict();
/** POST /knowledge/glossary, PUT /knowledge/glossary/:entry_id. A term is unique per connection, ignoring case (409 CONFLICT). */
export type GlossaryEntryRequest = z.input<typeof glossaryEntrySchema>;
export type GlossaryInput = z.output<typeof glossaryEntrySchema>;

export const tableNoteSchema = z
  .object({
    schema: name.nullable().optional().transform((v) => v ?? null),
    table: name,
    description: optionalText(L.text),
    columns: z
      .record(name, text(L.text))
      .refine((v) => Object.keys(v).length <= L.columns, `at most ${L.columns} column notes`)
      .default({}),
    data_quality: list('data-quality notes'),
  })
  .strict();
/** PUT /knowledge/tables: creates or replaces the note of the table it names. */
export type TableNoteRequest = z.input<typeof tableNoteSchema>;
export type TableNoteParsed = z.output<typeof tableNoteSchema>;

export const exampleSchema = z.object({ question: text(L.text), sql }).strict();
/** POST /knowledge/examples, PUT /knowledge/examples/:example_id: the SQL is checked by the guard and run read-only first. */
export type ExampleRequest = z.input<typeof exampleSchema>;
export type ExampleInput = z.output<typeof exampleSchema>;

export const saveAnswerSchema = z
  .object({
    thread_id: z.string().trim().min(1, 'must name a thread').max(100),
    message_id: z.string().trim().min(1, 'must name a message').max(200),
    question: text(L.text).optional(),
  })
  .strict();
/**
 * POST /knowledge/examples/from-answer ("Save as example"): names the query result of an answer (the tool
 * message's id, or its tool call's id); the question is ask_database's, unless given (a `SQL:` message needs one).
 */
export type SaveAnswerRequest = z.input<typeof saveAnswerSchema>;
export type SaveAnswerInput = z.output<typeof saveAnswerSchema>;

const category = z.enum(LEARNING_CATEGORIES, { error: `must be one of ${LEARNING_CATEGORIES.join(', ')}` });
const tables = z.array(name).min(1, 'name at least one table').max(L.columns, `at most ${L.columns} tables`);

/** What the agent's save_learning tool takes (the model's arguments: checked like any other input). */
export const learningSchema = z
  .object({
    category,
    tables,
    failed_sql: optionalText(L.sql),
    working_sql: sql,
    lesson: text(L.text).refine((v) => v.length >= 20, 'must say what was learned in at least 20 characters'),
  })
  .strict();
export type LearningInput = z.output<typeof learningSchema>;

export const learningPatchSchema = z
  .object({
    category: category.optional(),
    tables: tables.optional(),
    failed_sql: optionalText(L.sql),
    working_sql: sql.optional(),
    lesson: text(L.text).optional(),
    confidence: z.number().int().min(1).max(L.confidence).optional(),
  })
  .strict()
  .refine((v) => Object.keys(v).length > 0, { message: 'give at least one field to change' });
/** PATCH /knowledge/learnings/:learning_id (the owner's edits). */
export type LearningPatchRequest = z.input<typeof learningPatchSchema>;
export type LearningPatchInput = z.output<typeof learningPatchSchema>;

export const importQuerySchema = z.object({ mode: z.enum(['merge', 'replace'], { error: 'must be merge or replace' }).default('merge') }).strict();

/** The portable file: ids, dates and thread references stay behind; examples are verified again on import. */
export interface KnowledgeFile {
  format: typeof KNOWLEDGE_FORMAT;
  version: typeof KNOWLEDGE_FORMAT_VERSION;
  exported_at: string;
  dialect: 'postgres' | 'mysql' | 'sqlite';
  instructions: string;
  glossary: GlossaryEntryRequest[];
  tables: TableNoteRequest[];
  examples: ExampleRequest[];
  learnings: { category: LearningCategory; tables: string[]; failed_sql: string | null; working_sql: string; lesson: string; confidence: number }[];
}

/** The knowledge file (GET /export, POST /import): versioned, every field bounded as in the API. */
export function knowledgeFileSchema(limits: { glossary: number; tables: number; examples: number; learnings: number }) {
  return z
    .object({
      format: z.literal(KNOWLEDGE_FORMAT, { error: `must be "${KNOWLEDGE_FORMAT}"` }),
      version: z.literal(KNOWLEDGE_FORMAT_VERSION, { error: `must be ${KNOWLEDGE_FORMAT_VERSION} (the only version this server reads)` }),
      exported_at: z.string().max(100).optional(),
      dialect: z.enum(['postgres', 'mysql', 'sqlite']).optional(),
      instructions: instructionsSchema.shape.text.default(''),
      glossary: z.array(glossaryEntrySchema).max(limits.glossary, `at most ${limits.glossary} terms`).default([]),
      tables: z.array(tableNoteSchema).max(limits.tables, `at most ${limits.tables} table notes`).default([]),
      examples: z.array(exampleSchema).max(limits.examples, `at most ${limits.examples} examples`).default([]),
      learnings: z
        .array(learningSchema.extend({ confidence: z.number().int().min(1).max(L.confidence).default(1) }))
        .max(limits.learnings, `at most ${limits.learnings} learnings`)
        .default([]),
    })
    .strict();
}
export type KnowledgeFileInput = z.output<ReturnType<typeof knowledgeFileSchema>>;

/** Names the web app used first, kept: each is the request type its zod schema accepts. */
export type GlossaryEntryInput = GlossaryEntryRequest;
export type TableNoteInput = TableNoteRequest;
export type ExampleQueryInput = ExampleRequest;
export type SaveAnswerAsExampleInput = SaveAnswerRequest;
export type LearningPatch = LearningPatchRequest;
