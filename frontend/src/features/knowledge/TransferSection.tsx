import { useRef, useState, type ChangeEvent } from 'react';
import { ApiError } from '../../lib/api-error';
import { ErrorBox } from '../../ui/ErrorBox';
import { knowledgeApi } from './knowledge-api';
import { describeImport, exportFileName, LIMITS, readImportFile } from './knowledge-model';
import type { KnowledgeImportResult } from '@aigis/contracts';

type ImportState =
  | { step: 'idle' }
  | { step: 'importing' }
  | { step: 'done'; result: KnowledgeImportResult }
  | { step: 'failed'; code?: string; message: string; details?: unknown };

/** The connection's knowledge as one JSON file, to move it to another connection or instance. */
export function TransferSection({ connectionId, connectionName, onImported }: { connectionId: string; connectionName: string; onImported(): void }) {
  const [exporting, setExporting] = useState(false);
  const [exportError, setExportError] = useState<ApiError | null>(null);
  const [state, setState] = useState<ImportState>({ step: 'idle' });
  const [mode, setMode] = useState<'merge' | 'replace'>('merge');
  const input = useRef<HTMLInputElement>(null);

  async function download() {
    setExporting(true);
    setExportError(null);
    try {
      const data = await knowledgeApi.export(connectionId);
      const url = URL.createObjectURL(new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' }));
      const a = document.createElement('a');
      a.href = url;
      a.download = exportFileName(connectionName, new Date());
      a.click();
      window.setTimeout(() => URL.revokeObjectURL(url), 1000);
    } catch (err) {
      setExportError(ApiError.from(err));
    } finally {
      setExporting(false);
    }
  }

  async function upload(e: ChangeEvent<HTMLInputElement>) {
    const file = e.target.files?.[0];
    // The same file can be chosen again after fixing it.
    e.target.value = '';
    if (!file) return;
    const read = await readImportFile(file);
    if (!read.ok) return setState({ step: 'failed', message: read.message });
    setState({ step: 'importing' });
    try {
      const result = await knowledgeApi.import(connectionId, read.body, mode);
      setState({ step: 'done', result });
      onImported();
    } catch (err) {
      const error = ApiError.from(err);
      setState({ step: 'failed', code: error.code, message: error.message, details: error.details });
    }
  }

  return (
    <section className="knowledge-section" id="knowledge-transfer" aria-labelledby="knowledge-transfer-title">
      <h2 id="knowledge-transfer-title">Export and import</h2>
      <p className="muted">
        One JSON file with the instructions, glossary, table notes, examples and corrections. Importing checks every example against this
        database again; those that do not run here are listed and left out. At most {LIMITS.importBytes / 1024 / 1024} MB.
      </p>
      <div className="form-actions">
        <button type="button" className="btn" onClick={() => void download()} disabled={exporting} data-testid="knowledge-export">
          {exporting ? 'Exporting…' : 'Export to a file'}
        </button>
        <select value={mode} onChange={(e) => setMode(e.target.value as 'merge' | 'replace')} aria-label="How to import" className="knowledge-import-mode" data-testid="knowledge-import-mode">
          <option value="merge">Import: add to what is here</option>
          <option value="replace">Import: replace what is here</option>
        </select>
        <button type="button" className="btn" onClick={() => input.current?.click()} disabled={state.step === 'importing'}>
          {state.step === 'importing' ? 'Importing…' : 'Choose a file…'}
        </button>
        <input ref={input} type="file" accept=".json,application/json" hidden onChange={(e) => void upload(e)} data-testid="knowledge-import-file" />
      </div>
      {exportError && <ErrorBox code={exportError.code} message={exportError.message} />}
      {state.step === 'failed' && <ErrorBox code={state.code} message={state.message} details={state.details} />}
      {state.step === 'done' && (
        <div role="status" data-testid="knowledge-import-result">
          <p className="saved-note">Imported ({state.result.mode === 'replace' ? 'replacing' : 'adding to'} what was here): {describeImport(state.result)}.</p>
          {state.result.rejected_examples.length > 0 && (
            <ul className="knowledge-rejected">
              {state.result.rejected_examples.slice(0, 50).map((r) => (
                <li key={r.index} className="knowledge-text small">
                  Example {r.index + 1} “{r.question}” was left out: {r.message} <code>{r.code}</code>
                </li>
              ))}
              {state.result.rejected_examples.length > 50 && <li className="muted small">…and {state.result.rejected_examples.length - 50} more.</li>}
            </ul>
          )}
        </div>
      )}
    </section>
  );
}

