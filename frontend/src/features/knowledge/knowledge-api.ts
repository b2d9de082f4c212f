import { api } from '../../lib/api-client';
import type {
  ConnectionKnowledge,
  ExampleQuery,
  ExampleQueryInput,
  GlossaryEntry,
  GlossaryEntryInput,
  KnowledgeFile,
  KnowledgeImportResult,
  KnowledgeInstructions,
  Learning,
  LearningPatch,
  SaveAnswerAsExampleInput,
  TableNote,
  TableNoteInput,
} from '@aigis/contracts';

const base = (connectionId: string) => `/connections/${encodeURIComponent(connectionId)}/knowledge`;
const item = (connectionId: string, kind: string, id: string) => `${base(connectionId)}/${kind}/${encodeURIComponent(id)}`;

/** The knowledge API of one connection (only its owner reaches it; anyone else gets 404). */
export const knowledgeApi = {
  /** Everything at once: instructions, glossary, table notes, examples, learnings. */
  all: (c: string) => api.get<ConnectionKnowledge>(base(c)),
  saveInstructions: (c: string, text: string) => api.put<KnowledgeInstructions>(`${base(c)}/instructions`, { text }),

  addGlossary: (c: string, input: GlossaryEntryInput) => api.post<GlossaryEntry>(`${base(c)}/glossary`, input),
  updateGlossary: (c: string, id: string, input: GlossaryEntryInput) => api.put<GlossaryEntry>(item(c, 'glossary', id), input),
  removeGlossary: (c: string, id: string) => api.delete(item(c, 'glossary', id)),

  /** The API runs the SQL (read-only, through the guard) before keeping it: a refused or failing query answers its error. */
  addExample: (c: string, input: ExampleQueryInput) => api.post<ExampleQuery>(`${base(c)}/examples`, input),
  /** "Save as example": the server takes the SQL from the thread's tool call, so only what ran can be saved. */
  saveAnswer: (c: string, input: SaveAnswerAsExampleInput) => api.post<ExampleQuery>(`${base(c)}/examples/from-answer`, input),
  removeExample: (c: string, id: string) => api.delete(item(c, 'examples', id)),

  updateLearning: (c: string, id: string, patch: LearningPatch) => api.patch<Learning>(item(c, 'learnings', id), patch),
  removeLearning: (c: string, id: string) => api.delete(item(c, 'learnings', id)),

  tableNotes: (c: string) => api.get<TableNote[]>(`${base(c)}/tables`),
  saveTableNote: (c: string, input: TableNoteInput) => api.put<TableNote>(`${base(c)}/tables`, input),

  export: (c: string) => api.get<KnowledgeFile>(`${base(c)}/export`),
  import: (c: string, file: unknown, mode: 'merge' | 'replace') => api.post<KnowledgeImportResult>(`${base(c)}/import?mode=${mode}`, file),
};
