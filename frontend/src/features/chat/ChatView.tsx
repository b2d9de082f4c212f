import type { ReviewMode } from '@aigis/contracts';
import { useEffect, useMemo, useState } from 'react';
import { Link } from '../../app/router';
import { paths } from '../../app/routes';
import { ApiError } from '../../lib/api-error';
import { pendingMessage } from '../../lib/pending-message';
import { ErrorBox } from '../../ui/ErrorBox';
import { plural } from '../../ui/format';
import { ConnectionSelect } from '../connections/ConnectionSelect';
import { useConnections } from '../connections/connections-context';
import { ExampleTargetContext } from '../knowledge/SaveAsExample';
import { ModelPicker } from '../models/ModelPicker';
import { modelsApi } from '../models/models-api';
import { rememberModel, useModels } from '../models/models-context';
import { NoModelNotice } from '../models/NoModelNotice';
import { useThreads } from '../threads/threads-context';
import { chatApi } from './chat-api';
import { Composer } from './Composer';
import { preloadMarkdown } from './MarkdownText';
import { MessageList } from './MessageList';
import { ReviewModeSelect } from './ReviewModeSelect';
import { ReviewProposalCard } from './ReviewProposalCard';
import { SqlRerunContext } from './ToolCallView';
import { useThreadChat } from './use-thread-chat';
import './chat.css';

export function ChatView({ threadId }: { threadId: string }) {
  const threads = useThreads();
  const { models, providers, noneAvailable } = useModels();
  const { connections } = useConnections();
  const chat = useThreadChat(threadId, () => void threads.refresh());
  const { info, setInfo } = chat;
  const [settingError, setSettingError] = useState<ApiError | null>(null);
  const [connectionNote, setConnectionNote] = useState<string | null>(null);
  const [busy, setBusy] = useState<'model' | 'connection' | 'review' | null>(null);

  useEffect(preloadMarkdown, []);

  const { send, streaming, loading } = chat;
  const rerun = useMemo(() => ({ run: (sql: string) => void send(`SQL: ${sql}`), disabled: streaming }), [send, streaming]);
  const connectionId = chat.info?.connection_id ?? null;
  const exampleTarget = useMemo(() => (connectionId ? { connectionId, threadId } : null), [connectionId, threadId]);

  useEffect(() => {
    setSettingError(null);
    setConnectionNote(null);
  }, [threadId]);

  // A question typed on the home screen is sent once its new thread has loaded.
  useEffect(() => {
    if (loading || !info || info.thread_id !== threadId) return;
    const first = pendingMessage.take(threadId);
    if (first) void send(first);
  }, [loading, info, threadId, send]);

  async function switchModel(name: string) {
    setBusy('model');
    setSettingError(null);
    try {
      const res = await modelsApi.setThreadModel(threadId, name);
      const model = res.model ?? name;
      setInfo((i) => (i ? { ...i, model } : i));
      threads.patchLocal(threadId, { model });
      rememberModel(model);
    } catch (err) {
      setSettingError(ApiError.from(err));
    } finally {
      setBusy(null);
    }
  }

  async function switchReview(review: ReviewMode | null) {
    setBusy('review');
    setSettingError(null);
    try {
      const res = await chatApi.setReview(threadId, review);
      setInfo((i) => (i ? { ...i, review: res.review } : i));
    } catch (err) {
      setSettingError(ApiError.from(err));
    } finally {
      setBusy(null);
    }
  }

  async function switchConnection(connectionId: string) {
    setBusy('connection');
    setSettingError(null);
    setConnectionNote(null);
    try {
      const res = await chatApi.setConnection(threadId, connectionId);
      setInfo((i) => (i ? { ...i, connection_id: res.connection_id } : i));
      threads.patchLocal(threadId, { connection_id: res.connection_id });
      setConnectionNote(`Schema read: ${plural(res.tables, 'table')}${res.markdown_mode === 'compact' ? ' (large schema: the model looks tables up as needed)' : ''}.`);
    } catch (err) {
      setSettingError(ApiError.from(err));
    } finally {
      setBusy(null);
    }
  }

  if (chat.loadError) {
    return (
      <div className="chat">
        <div className="page">
          <ErrorBox
            code={chat.loadError.code}
            message={chat.loadError.status === 404 ? 'This thread does not exist (or was deleted).' : chat.loadError.message}
            onRetry={chat.loadError.status === 404 ? undefined : chat.reload}
          />
          <Link to={paths.home()}>Back to the start</Link>
        </div>
      </div>
    );
  }

  const currentModel = models.find((m) => m.name === info?.model);
  // The server may retitle a thread after its first answer; the refreshed list has the latest title.
  const title = threads.threads.find((t) => t.thread_id === threadId)?.title || info?.title || 'New thread';
  const hasConnection = Boolean(info?.connection_id);
  const connectionReview = connections.find((c) => c.id === info?.connection_id)?.review;
  const pending = chat.state.pendingReview;
  return (
    <div className="chat" data-testid="chat-view">
      <header className="chat-header">
        <h1 className="chat-title" title={title}>
          {title}
        </h1>
        <div className="chat-settings">
          <ModelPicker models={models} value={info?.model ?? null} disabled={!info || chat.streaming || busy !== null} onChange={switchModel} />
          <ConnectionSelect
            connections={connections}
            value={info?.connection_id ?? null}
            disabled={!info || chat.streaming || busy !== null}
            onChange={switchConnection}
          />
          <ReviewModeSelect
            value={info?.review ?? null}
            inherit={`Like the connection${connectionReview ? ` (${connectionReview === 'expensive' ? 'when expensive' : connectionReview})` : ''}`}
            disabled={!info || chat.streaming || busy !== null}
            onChange={(mode) => void switchReview(mode)}
            testId="thread-review"
          />
        </div>
      </header>

      <div className="chat-scroll">
        <div className="chat-column">
          {settingError && <ErrorBox code={settingError.code} message={settingError.message} />}
          {busy === 'connection' && (
            <p className="muted small" role="status">
              Reading the database schema…
            </p>
          )}
          {connectionNote && (
            <p className="muted small" role="status" data-testid="connection-note">
              {connectionNote}
            </p>
          )}
          {currentModel && !currentModel.available && (
            <ErrorBox
              code="MODEL_UNAVAILABLE"
              message={`${currentModel.name} is unavailable${currentModel.reason ? `: ${currentModel.reason}` : ''}.`}
            />
          )}
          {noneAvailable && <NoModelNotice providers={providers} />}
          {!chat.loading && info && !hasConnection && (
            <div className="notice notice-info">
              Choose a database above{connections.length === 0 && (
                <>
                  {' '}
                  — or <Link to={paths.newConnection()}>add a connection</Link> first
                </>
              )}
              .
            </div>
          )}
          {!chat.loading && chat.state.messages.length === 0 && <EmptyThread noModel={noneAvailable} />}
          <SqlRerunContext.Provider value={rerun}>
            <ExampleTargetContext.Provider value={exampleTarget}>
              <MessageList state={chat.state} />
            </ExampleTargetContext.Provider>
          </SqlRerunContext.Provider>
          {pending && !chat.streaming && <ReviewProposalCard proposal={pending} disabled={chat.streaming} onDecide={chat.confirm} />}
        </div>
      </div>

      <div className="chat-footer">
        <div className="chat-column">
          <Composer
            streaming={chat.streaming}
            disabled={!info}
            autoFocus
            placeholder={noneAvailable ? 'No model configured: type SQL: SELECT …' : 'Ask a question about your data…'}
            onSend={(text) => void chat.send(text)}
            onStop={chat.stop}
          />
        </div>
      </div>
    </div>
  );
}

function EmptyThread({ noModel }: { noModel: boolean }) {
  return (
    <div className="empty-thread">
      <p className="muted">{noModel ? 'Run SQL directly, for example:' : 'Ask in plain language, for example:'}</p>
      <ul>
        {noModel ? (
          <li>
            <code>SQL: SELECT * FROM customers LIMIT 20</code>
          </li>
        ) : (
          <>
            <li>Which 10 customers spent the most last year?</li>
            <li>Monthly revenue for the last two years as a line chart</li>
            <li>
              <code>SQL: SELECT count(*) FROM orders</code> runs the SQL as written
            </li>
          </>
        )}
      </ul>
    </div>
  );
}
