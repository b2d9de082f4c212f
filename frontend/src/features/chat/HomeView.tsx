import { Link } from '../../app/router';
import { paths } from '../../app/routes';
import { ErrorBox } from '../../ui/ErrorBox';
import { useConnections } from '../connections/connections-context';
import { useModels } from '../models/models-context';
import { NoModelNotice } from '../models/NoModelNotice';
import { useNewThread } from '../threads/use-new-thread';
import { Composer } from './Composer';
import './chat.css';

/** The start screen: a question typed here opens a new thread and is sent there. */
export function HomeView() {
  const { noneAvailable, providers, loading: modelsLoading } = useModels();
  const { connections, loading } = useConnections();
  const { create, creating, error } = useNewThread();

  return (
    <div className="chat">
      <div className="chat-scroll">
        <div className="chat-column home">
          <h1 className="home-title">What would you like to know?</h1>
          <p className="muted">
            Ask about your data in plain language. Answers come with the SQL that ran, the rows, and a chart when it helps.
          </p>
          {!loading && connections.length === 0 && (
            <div className="notice notice-info">
              No database yet. <Link to={paths.newConnection()}>Add a connection</Link> to start.
            </div>
          )}
          {noneAvailable && <NoModelNotice providers={providers} />}
          {error && <ErrorBox code={error.code} message={error.message} />}
        </div>
      </div>
      <div className="chat-footer">
        <div className="chat-column">
          <Composer
            streaming={false}
            disabled={creating}
            // A thread created before the lists arrive would start with no database and no model.
            sendBlocked={loading || modelsLoading}
            autoFocus
            placeholder={noneAvailable ? 'No model configured: type SQL: SELECT …' : 'Ask a question about your data…'}
            onSend={(text) => void create(text)}
            onStop={() => undefined}
          />
        </div>
      </div>
    </div>
  );
}
