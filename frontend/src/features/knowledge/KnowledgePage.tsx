import type { Connection, ConnectionKnowledge } from '@aigis/contracts';
import { useCallback, useEffect, useState } from 'react';
import { Link } from '../../app/router';
import { paths } from '../../app/routes';
import { useRemote } from '../../lib/use-remote';
import { ErrorBox } from '../../ui/ErrorBox';
import { connectionsApi } from '../connections/connections-api';
import { CorrectionsSection } from './CorrectionsSection';
import { ExamplesSection } from './ExamplesSection';
import { GlossarySection } from './GlossarySection';
import { InstructionsSection } from './InstructionsSection';
import { knowledgeApi } from './knowledge-api';
import type { SectionProps } from './section-props';
import { TransferSection } from './TransferSection';
import './knowledge.css';

/** What the model is told about one connection's business: instructions, terms, examples, corrections. */
export function KnowledgePage({ connectionId }: { connectionId: string }) {
  const [connection, setConnection] = useState<Connection | null>(null);
  // Bumped once an import's changes are read back, so the sections' forms start from the new values.
  const [generation, setGeneration] = useState(0);
  const knowledge = useRemote<ConnectionKnowledge | null>(useCallback(() => knowledgeApi.all(connectionId), [connectionId]), null);
  const { setData } = knowledge;
  const update = useCallback((change: (k: ConnectionKnowledge) => ConnectionKnowledge) => setData((k) => (k ? change(k) : k)), [setData]);

  useEffect(() => {
    let alive = true;
    connectionsApi.get(connectionId).then(
      (c) => alive && setConnection(c),
      () => undefined,
    );
    return () => {
      alive = false;
    };
  }, [connectionId]);

  const error = knowledge.error;
  if (error && !knowledge.data) {
    return (
      <div className="page">
        <ErrorBox
          code={error.code}
          message={error.status === 404 ? 'This connection does not exist (or was deleted).' : error.message}
          onRetry={error.status === 404 ? undefined : knowledge.refresh}
        />
        <Link to={paths.connections()}>Back to connections</Link>
      </div>
    );
  }

  const props: SectionProps | null = knowledge.data ? { connectionId, knowledge: knowledge.data, update } : null;
  return (
    <div className="page page-wide knowledge" data-testid="knowledge-page">
      <header className="page-header">
        <div>
          <p className="crumbs">
            <Link to={paths.connections()}>Connections</Link> / {connection?.name ?? '…'} /
          </p>
          <h1>Knowledge</h1>
          <p className="muted">
            What the model is told about this database beyond its schema. Table and column notes are edited in the{' '}
            <Link to={paths.schema(connectionId)}>schema browser</Link>.
          </p>
        </div>
        <nav className="knowledge-nav" aria-label="Sections">
          <a href="#knowledge-instructions">Instructions</a>
          <a href="#knowledge-glossary">Glossary</a>
          <a href="#knowledge-examples">Examples</a>
          <a href="#knowledge-corrections">Corrections</a>
          <a href="#knowledge-transfer">Export</a>
        </nav>
      </header>
      {error && <ErrorBox code={error.code} message={error.message} onRetry={knowledge.refresh} />}
      {knowledge.loading && <p className="muted">Loading…</p>}
      {props && (
        <>
          <div key={generation}>
            <InstructionsSection {...props} />
            <GlossarySection {...props} />
            <ExamplesSection {...props} />
            <CorrectionsSection {...props} />
          </div>
          <TransferSection
            connectionId={connectionId}
            connectionName={connection?.name ?? 'connection'}
            onImported={() => void knowledge.refresh().then(() => setGeneration((g) => g + 1))}
          />
        </>
      )}
    </div>
  );
}

