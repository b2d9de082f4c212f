import { connectionKnowledgeSchema, exampleQuerySchema, exampleSearchResultSchema, glossaryEntryResponseSchema, knowledgeImportResultSchema, knowledgeInstructionsSchema, learningResponseSchema, tableNoteResponseSchema } from '@aigis/contracts';
import { Body, Controller, Delete, Get, Header, HttpCode, Param, Patch, Post, Put, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiTags } from '@nestjs/swagger';
import type {
  ConnectionKnowledge,
  ExampleQuery,
  GlossaryEntry,
  KnowledgeFile,
  KnowledgeImportResult,
  KnowledgeInstructions,
  Learning,
  TableNote,
} from '@aigis/contracts';
import type { Request } from 'express';
import { z } from 'zod';
import { type AuthUser, CurrentUser } from '../common/auth.decorators.js';
import { abortSignalFor } from '../common/request-abort.js';
import { Returns, ZodBody, ZodQuery } from '../common/zod.js';
import { ExamplesService } from './examples.service.js';
import { KnowledgeTransferService } from './knowledge-transfer.service.js';
import { KnowledgeService } from './knowledge.service.js';
import {
  type ExampleInput,
  exampleSchema,
  type GlossaryInput,
  glossaryEntrySchema,
  importQuerySchema,
  type InstructionsInput,
  instructionsSchema,
  knowledgeFileSchema,
  type LearningPatchInput,
  learningPatchSchema,
  type TableNoteParsed,
  tableNoteSchema,
} from '@aigis/contracts';
import { LearningsService } from './learnings.service.js';
import { ExampleRetrieval } from './retrieval/example-retrieval.service.js';

/** The knowledge file as documented (the import reads it with the configured limits). */
const KNOWLEDGE_FILE = knowledgeFileSchema({ glossary: 500, tables: 2000, examples: 10_000, learnings: 1000 });

const searchQuerySchema = z
  .object({
    q: z.string().trim().min(1, 'must not be empty').max(2000, 'must be at most 2,000 characters'),
    k: z.coerce.number().int().min(1).max(50).default(5),
  })
  .strict();

/** The knowledge of one connection; every route answers 404 for a connection that is not the caller's. */
@ApiTags('knowledge')
@ApiBearerAuth()
@Controller('connections/:id/knowledge')
export class KnowledgeController {
  constructor(
    private readonly knowledge: KnowledgeService,
    private readonly examples: ExamplesService,
    private readonly learnings: LearningsService,
    private readonly transfer: KnowledgeTransferService,
    private readonly retrieval: ExampleRetrieval,
  ) {}

  @Returns(connectionKnowledgeSchema)
  @Get()
  overview(@CurrentUser() user: AuthUser, @Param('id') id: string): Promise<ConnectionKnowledge> {
    return this.knowledge.overview(user.id, id);
  }

  @Returns(knowledgeInstructionsSchema)
  @Get('instructions')
  instructions(@CurrentUser() user: AuthUser, @Param('id') id: string): Promise<KnowledgeInstructions> {
    return this.knowledge.instructions(user.id, id);
  }

  @Returns(knowledgeInstructionsSchema)
  @Put('instructions')
  setInstructions(@CurrentUser() user: AuthUser, @Param('id') id: string, @ZodBody(instructionsSchema) body: InstructionsInput): Promise<KnowledgeInstructions> {
    return this.knowledge.setInstructions(user.id, id, body.text);
  }

  @Returns(z.array(glossaryEntryResponseSchema))
  @Get('glossary')
  glossary(@CurrentUser() user: AuthUser, @Param('id') id: string): Promise<GlossaryEntry[]> {
    return this.knowledge.glossary(user.id, id);
  }

  @Returns(glossaryEntryResponseSchema)
  @Post('glossary')
  addTerm(@CurrentUser() user: AuthUser, @Param('id') id: string, @ZodBody(glossaryEntrySchema) body: GlossaryInput): Promise<GlossaryEntry> {
    return this.knowledge.addTerm(user.id, id, body);
  }

  @Returns(glossaryEntryResponseSchema)
  @Put('glossary/:entry_id')
  updateTerm(
    @CurrentUser() user: AuthUser,
    @Param('id') id: string,
    @Param('entry_id') entryId: string,
    @ZodBody(glossaryEntrySchema) body: GlossaryInput,
  ): Promise<GlossaryEntry> {
    return this.knowledge.updateTerm(user.id, id, entryId, body);
  }

  @Delete('glossary/:entry_id')
  @HttpCode(204)
  deleteTerm(@CurrentUser() user: AuthUser, @Param('id') id: string, @Param('entry_id') entryId: string): Promise<void> {
    return this.knowledge.deleteTerm(user.id, id, entryId);
  }

  @Returns(z.array(tableNoteResponseSchema))
  @Get('tables')
  tables(@CurrentUser() user: AuthUser, @Param('id') id: string): Promise<TableNote[]> {
    return this.knowledge.tables(user.id, id);
  }

  /** Creates or replaces the note of the table named in the body. */
  @Returns(tableNoteResponseSchema)
  @Put('tables')
  putTable(@CurrentUser() user: AuthUser, @Param('id') id: string, @ZodBody(tableNoteSchema) body: TableNoteParsed): Promise<TableNote> {
    return this.knowledge.putTable(user.id, id, body);
  }

  @Delete('tables/:note_id')
  @HttpCode(204)
  deleteTable(@CurrentUser() user: AuthUser, @Param('id') id: string, @Param('note_id') noteId: string): Promise<void> {
    return this.knowledge.deleteTable(user.id, id, noteId);
  }

  @Returns(z.array(exampleQuerySchema))
  @Get('examples')
  listExamples(@CurrentUser() user: AuthUser, @Param('id') id: string): Promise<ExampleQuery[]> {
    return this.examples.list(user.id, id);
  }

  /** The examples the SQL writer would get for a question (BM25), best first. */
  @Returns(z.array(exampleSearchResultSchema))
  @Get('examples/search')
  async searchExamples(
    @CurrentUser() user: AuthUser,
    @Param('id') id: string,
    @ZodQuery(searchQuerySchema) query: z.infer<typeof searchQuerySchema>,
  ): Promise<{ id: string; question: string; sql: string; score: number }[]> {
    await this.knowledge.owned(user.id, id);
    return (await this.retrieval.retrieveExamples(id, query.q, query.k)).map((r) => ({ ...r.example, score: r.score }));
  }

  /** Verified by running it (guard + read-only executor) before it is kept. */
  @Returns(exampleQuerySchema)
  @Post('examples')
  addExample(@CurrentUser() user: AuthUser, @Param('id') id: string, @ZodBody(exampleSchema) body: ExampleInput, @Req() request: Request): Promise<ExampleQuery> {
    return this.examples.add(user.id, id, body, { source: 'manual', signal: abortSignalFor(request) });
  }

  @Returns(exampleQuerySchema)
  @Put('examples/:example_id')
  updateExample(
    @CurrentUser() user: AuthUser,
    @Param('id') id: string,
    @Param('example_id') exampleId: string,
    @ZodBody(exampleSchema) body: ExampleInput,
    @Req() request: Request,
  ): Promise<ExampleQuery> {
    return this.examples.update(user.id, id, exampleId, body, abortSignalFor(request));
  }

  @Delete('examples/:example_id')
  @HttpCode(204)
  deleteExample(@CurrentUser() user: AuthUser, @Param('id') id: string, @Param('example_id') exampleId: string): Promise<void> {
    return this.examples.delete(user.id, id, exampleId);
  }

  @Returns(z.array(learningResponseSchema))
  @Get('learnings')
  listLearnings(@CurrentUser() user: AuthUser, @Param('id') id: string): Promise<Learning[]> {
    return this.learnings.list(user.id, id);
  }

  @Returns(learningResponseSchema)
  @Patch('learnings/:learning_id')
  updateLearning(
    @CurrentUser() user: AuthUser,
    @Param('id') id: string,
    @Param('learning_id') learningId: string,
    @ZodBody(learningPatchSchema) body: LearningPatchInput,
  ): Promise<Learning> {
    return this.learnings.update(user.id, id, learningId, body);
  }

  @Delete('learnings/:learning_id')
  @HttpCode(204)
  deleteLearning(@CurrentUser() user: AuthUser, @Param('id') id: string, @Param('learning_id') learningId: string): Promise<void> {
    return this.learnings.delete(user.id, id, learningId);
  }

  @Returns(KNOWLEDGE_FILE, { io: 'input' })
  @Get('export')
  @Header('Content-Disposition', 'attachment; filename="knowledge.json"')
  export(@CurrentUser() user: AuthUser, @Param('id') id: string): Promise<KnowledgeFile> {
    return this.transfer.export(user.id, id);
  }

  /** `?mode=merge` (default) keeps this connection's knowledge and adds the file's; `?mode=replace` replaces it. */
  @Returns(knowledgeImportResultSchema)
  @Post('import')
  @HttpCode(200)
  @ApiBody({ schema: z.toJSONSchema(KNOWLEDGE_FILE, { target: 'openapi-3.0', io: 'input' }) as object })
  import(
    @CurrentUser() user: AuthUser,
    @Param('id') id: string,
    @ZodQuery(importQuerySchema) query: z.infer<typeof importQuerySchema>,
    // Validated by the service against this instance's limits (KNOWLEDGE_MAX_*).
    @Body() body: unknown,
    @Req() request: Request,
  ): Promise<KnowledgeImportResult> {
    return this.transfer.import(user.id, id, body, query.mode, abortSignalFor(request));
  }
}
