import type { TableNote } from '@aigis/contracts';
import { z } from 'zod';
import type { SchemaService } from '../../connections/schema.service.js';
import { describeTableMarkdown, findTable } from '../../connections/introspection/schema-markdown.js';
import { matchTableNotes } from '../../connections/introspection/table-notes.js';
import { isAppError } from '../../common/app-error.js';
import { type AgentTool, toolError } from './agent-tool.js';

const schema = z.object({ table: z.string().min(1).describe('Table name, optionally schema-qualified (schema.table).') });

/** For schemas too large for the prompt: the model reads one table's columns, keys and sample rows on demand. */
export function describeTableTool(deps: { schemas: SchemaService; tableNotes(connectionId: string): Promise<TableNote[]> }): AgentTool<typeof schema> {
  return {
    name: 'describe_table',
    description: "Returns the columns (types, keys), foreign keys, sample rows and the owner's notes of one table of the connected database.",
    schema,
    async run({ table }, context) {
      if (!context.state.connection) return toolError('NO_CONNECTION', 'No database is connected to this conversation.');
      try {
        const { tables, dialect } = await deps.schemas.get(context.state.connection.user_id, context.state.connection.connection_id, { signal: context.signal });
        const found = findTable(tables, table);
        if (!found) {
          const needle = table.toLowerCase().split('.').pop()!;
          const similar = tables.filter((t) => t.name.toLowerCase().includes(needle) || needle.includes(t.name.toLowerCase())).slice(0, 10);
          return toolError('NOT_FOUND', `No table named ${table}.${similar.length ? ` Similar: ${similar.map((t) => (t.schema ? `${t.schema}.${t.name}` : t.name)).join(', ')}.` : ''}`);
        }
        const note = matchTableNotes([found], await deps.tableNotes(context.state.connection.connection_id)).get(found);
        const text = describeTableMarkdown(found, { dialect, note });
        return { content: text, result: { type: 'text', text } };
      } catch (error) {
        if (isAppError(error)) return toolError(error.code, error.message);
        throw error;
      }
    },
  };
}
