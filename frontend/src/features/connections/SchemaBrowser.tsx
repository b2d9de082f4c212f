import type { Connection, SchemaResponse, SchemaTable, TableNote } from '@aigis/contracts';
import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { Link } from '../../app/router';
import { paths } from '../../app/routes';
import { ApiError } from '../../lib/api-error';
import { ErrorBox } from '../../ui/ErrorBox';
import { DIALECT_LABEL, formatCount, qualifiedName } from '../../ui/format';
import { knowledgeApi } from '../knowledge/knowledge-api';
import { TableNotesPanel } from '../knowledge/TableNotesPanel';
import { ResultsTable } from '../results/ResultsTable';
import { connectionsApi } from './connections-api';
import './schema.css';

const tableKey = (t: SchemaTable) => (t.schema ? `${t.schema}.${t.name}` : t.name);

export function SchemaBrowser({ connectionId }: { connectionId: string }) {
  const [connection, setConnection] = useState<Connection | null>(null);
  const [schema, setSchema] = useState<SchemaResponse | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [loading, setLoading] = useState(true);
  const [selected, setSelected] = useState<string | null>(null);
  const [filter, setFilter] = useState('');
  const [notes, setNotes] = useState<Map<string, TableNote>>(new Map());
  const [notesError, setNotesError] = useState<ApiError | null>(null);

  const load = useCallback(
    async (refresh: boolean) => {
      setLoading(true);
      setError(null);
      try {
        const s = await connectionsApi.schema(connectionId, refresh);
        setSchema(s);
        setSelected((cur) => (cur && s.tables.some((t) => tableKey(t) === cur) ? cur : s.tables[0] ? tableKey(s.tables[0]) : null));
      } catch (err) {
        setError(ApiError.from(err));
      } finally {
        setLoading(false);
      }
    },
    [connectionId],
  );

  useEffect(() => {
    connectionsApi.get(connectionId).then(setConnection, () => undefined);
    void load(false);
    knowledgeApi.tableNotes(connectionId).then(
      (list) => setNotes(new Map(list.map((n) => [qualifiedName(n), n]))),
      (err) => setNotesError(ApiError.from(err)),
    );
  }, [connectionId, load]);

  const tables = useMemo(() => {
    const q = filter.trim().toLowerCase();
    return (schema?.tables ?? []).filter((t) => !q || tableKey(t).toLowerCase().includes(q));
  }, [schema, filter]);
  const table = schema?.tables.find((t) => tableKey(t) === selected) ?? null;

  return (
    <div className="page page-wide">
      <header className="page-header">
        <div>
          <p className="crumbs">
            <Link to={paths.connections()}>Connections</Link> /
          </p>
          <h1>{connection ? connection.name : 'Schema'}</h1>
          {schema && (
            <p className="muted">
              {DIALECT_LABEL[schema.dialect]} · {schema.tables.length} tables · read {new Date(schema.introspected_at).toLocaleString()} in{' '}
              {Math.round(schema.elapsed_ms)} ms
            </p>
          )}
        </div>
        <div className="form-actions">
          <Link className="btn" to={paths.knowledge(connectionId)} data-testid="schema-knowledge">
            Knowledge
          </Link>
          <button type="button" className="btn" onClick={() => load(true)} disabled={loading} data-testid="schema-refresh">
            {loading ? 'Reading…' : 'Refresh'}
          </button>
        </div>
      </header>

      {error && <ErrorBox code={error.code} message={error.message} details={error.details} onRetry={() => load(false)} />}
      {notesError && <ErrorBox code={notesError.code} message={`The table notes could not be read: ${notesError.message}`} />}

      {schema && (
        <div className="schema" data-testid="schema-browser">
          <nav className="schema-tables" aria-label="Tables">
            <input
              type="search"
              placeholder="Filter tables"
              value={filter}
              onChange={(e) => setFilter(e.target.value)}
              aria-label="Filter tables"
            />
            <ul>
              {tables.map((t) => (
                <li key={tableKey(t)}>
                  <button
                    type="button"
                    className={tableKey(t) === selected ? 'active' : ''}
                    aria-current={tableKey(t) === selected ? 'true' : undefined}
                    onClick={() => setSelected(tableKey(t))}
                    data-testid="schema-table"
                  >
                    <span className="table-name">{tableKey(t)}</span>
                    {t.kind === 'view' && <span className="badge">view</span>}
                    {t.row_estimate != null && <span className="muted small">{formatCount(t.row_estimate)}</span>}
                  </button>
                </li>
              ))}
              {tables.length === 0 && <li className="muted small pad">No table matches.</li>}
            </ul>
          </nav>
          <section className="schema-detail">
            {table ? (
              <TableDetail
                table={table}
                notes={
                  <TableNotesPanel
                    key={tableKey(table)}
                    connectionId={connectionId}
                    table={table}
                    note={notes.get(tableKey(table))}
                    onSaved={(n) => setNotes((m) => new Map(m).set(qualifiedName(n), n))}
                  />
                }
                columnNotes={notes.get(tableKey(table))?.columns ?? {}}
              />
            ) : (
              <p className="muted">No tables.</p>
            )}
          </section>
        </div>
      )}
    </div>
  );
}

function TableDetail({ table, notes, columnNotes }: { table: SchemaTable; notes: ReactNode; columnNotes: Record<string, string> }) {
  const fkByColumn = new Map<string, string>();
  for (const fk of table.foreign_keys) {
    fk.columns.forEach((c, i) => {
      const target = `${fk.referenced_schema ? `${fk.referenced_schema}.` : ''}${fk.referenced_table}.${fk.referenced_columns[i] ?? ''}`;
      fkByColumn.set(c, target);
    });
  }
  const sampleColumns = table.sample_rows[0] ? Object.keys(table.sample_rows[0]) : table.columns.map((c) => c.name);
  return (
    <>
      <h2 className="schema-title">
        {tableKey(table)}
        {table.row_estimate != null && <span className="muted small"> · ~{formatCount(table.row_estimate)} rows</span>}
      </h2>
      {table.comment && <p className="muted">{table.comment}</p>}
      {notes}
      <div className="table-scroll">
        <table className="data-table schema-columns" data-testid="schema-columns">
          <thead>
            <tr>
              <th scope="col">Column</th>
              <th scope="col">Type</th>
              <th scope="col">Keys</th>
              <th scope="col">Null</th>
              <th scope="col">Default</th>
              <th scope="col">Note</th>
            </tr>
          </thead>
          <tbody>
            {table.columns.map((c) => (
              <tr key={c.name}>
                <td className="mono">{c.name}</td>
                <td className="mono muted">{c.type}</td>
                <td>
                  {c.primary_key && (
                    <span className="key key-pk" title="Primary key">
                      PK
                    </span>
                  )}
                  {fkByColumn.has(c.name) && (
                    <span className="key key-fk" title={`References ${fkByColumn.get(c.name)}`}>
                      FK → {fkByColumn.get(c.name)}
                    </span>
                  )}
                </td>
                <td className="muted">{c.nullable ? 'yes' : 'no'}</td>
                <td className="mono muted">{c.default ?? ''}</td>
                <td className="column-note-text" data-testid="schema-column-note">
                  {columnNotes[c.name] ?? ''}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <h3>Sample rows</h3>
      {table.sample_error ? (
        <p className="muted">No sample rows: {table.sample_error}</p>
      ) : table.sample_rows.length === 0 ? (
        <p className="muted">The table is empty.</p>
      ) : (
        <ResultsTable columns={sampleColumns} rows={table.sample_rows} pageSize={10} exportName={table.name} compact />
      )}
    </>
  );
}
