import type { SqliteFilesResponse } from '@aigis/contracts';
import { useEffect, useId, useState } from 'react';
import { ApiError } from '../../lib/api-error';
import { formatBytes } from '../../ui/format';
import { connectionsApi } from './connections-api';

/** SQLite databases are files under the server's SQLITE_ROOT; the server lists them. */
export function SqliteFilePicker({ value, onChange, error }: { value: string; onChange(v: string): void; error?: string }) {
  const [files, setFiles] = useState<SqliteFilesResponse | null>(null);
  const [loadError, setLoadError] = useState<ApiError | null>(null);
  const id = useId();

  useEffect(() => {
    connectionsApi.sqliteFiles().then(setFiles, (err) => setLoadError(ApiError.from(err)));
  }, []);

  const listed = files?.files ?? [];
  const known = listed.some((f) => f.path === value);
  return (
    <div className="field">
      <label htmlFor={id}>Database file</label>
      {listed.length > 0 ? (
        <select id={id} value={value} onChange={(e) => onChange(e.target.value)} data-testid="conn-sqlite-file">
          <option value="">Choose a file…</option>
          {!known && value && <option value={value}>{value}</option>}
          {listed.map((f) => (
            <option key={f.path} value={f.path}>
              {f.path} ({formatBytes(f.size_bytes)})
            </option>
          ))}
        </select>
      ) : (
        <input id={id} value={value} onChange={(e) => onChange(e.target.value)} placeholder="file.db" data-testid="conn-sqlite-file" />
      )}
      {error && <small className="field-error">{error}</small>}
      {files && (
        <small className="muted">
          {listed.length > 0 ? 'Files under ' : 'No database files found under '}
          <code>{files.root}</code>
          {listed.length === 0 && ' (the server’s SQLITE_ROOT). Copy a .db/.sqlite file there, or set SQLITE_ROOT.'}
        </small>
      )}
      {loadError && <small className="field-error">Could not list the files: {loadError.message}</small>}
    </div>
  );
}
