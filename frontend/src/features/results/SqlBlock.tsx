import { useEffect, useState } from 'react';
import './results.css';

// highlight.js loads on first use; until then the SQL shows unhighlighted.
let highlighter: Promise<typeof import('../../lib/highlight-sql')> | null = null;
const loadHighlighter = () => (highlighter ??= import('../../lib/highlight-sql'));

/** The SQL that ran, highlighted, with a copy button. */
export function SqlBlock({ sql, label = 'SQL' }: { sql: string; label?: string }) {
  const [html, setHtml] = useState<string | null>(null);
  const [copied, setCopied] = useState<'idle' | 'copied' | 'failed'>('idle');

  useEffect(() => {
    let alive = true;
    setHtml(null);
    loadHighlighter().then(
      (m) => alive && setHtml(m.highlightSql(sql)),
      () => undefined,
    );
    return () => {
      alive = false;
    };
  }, [sql]);

  async function copy() {
    try {
      await navigator.clipboard.writeText(sql);
      setCopied('copied');
    } catch {
      setCopied('failed');
    }
    window.setTimeout(() => setCopied('idle'), 1500);
  }

  return (
    <figure className="sql-block" data-testid="sql-block">
      <figcaption>
        <span>{label}</span>
        <button type="button" className="btn btn-ghost btn-small" onClick={copy} data-testid="sql-copy" aria-live="polite">
          {copied === 'copied' ? 'Copied' : copied === 'failed' ? 'Copy failed' : 'Copy'}
        </button>
      </figcaption>
      <pre>
        {html === null ? (
          <code className="hljs language-sql">{sql}</code>
        ) : (
          <code className="hljs language-sql" dangerouslySetInnerHTML={{ __html: html }} />
        )}
      </pre>
    </figure>
  );
}
