import type { ThreadSummary } from '@aigis/contracts';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, navigate } from '../../app/router';
import { paths } from '../../app/routes';
import { ApiError } from '../../lib/api-error';
import { ConfirmButton } from '../../ui/ConfirmButton';
import { useThreads } from './threads-context';
import './threads.css';

interface Props {
  activeId: string | null;
  onNewThread(): void;
  creating: boolean;
}

export function ThreadSidebar({ activeId, onNewThread, creating }: Props) {
  const { threads, loading, error, rename, remove } = useThreads();
  const [actionError, setActionError] = useState<string | null>(null);

  async function doRemove(id: string) {
    try {
      await remove(id);
      if (id === activeId) navigate(paths.home(), { replace: true });
    } catch (err) {
      setActionError(ApiError.from(err).message);
    }
  }

  return (
    <nav className="threads" aria-label="Threads">
      <button type="button" className="btn btn-primary btn-block" onClick={onNewThread} disabled={creating} data-testid="new-thread">
        <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden>
          <path d="M8 3v10M3 8h10" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" />
        </svg>
        New thread
      </button>
      {error && <p className="field-error small">Could not load threads: {error.message}</p>}
      {actionError && <p className="field-error small">{actionError}</p>}
      {loading && <p className="muted small pad">Loading…</p>}
      {!loading && threads.length === 0 && !error && <p className="muted small pad">No threads yet.</p>}
      <ul className="thread-list" data-testid="thread-list">
        {threads.map((t) => (
          <ThreadItem
            key={t.thread_id}
            thread={t}
            active={t.thread_id === activeId}
            onRename={(title) => rename(t.thread_id, title).catch((err) => setActionError(ApiError.from(err).message))}
            onRemove={() => doRemove(t.thread_id)}
          />
        ))}
      </ul>
    </nav>
  );
}

function ThreadItem(props: { thread: ThreadSummary; active: boolean; onRename(title: string): void; onRemove(): void }) {
  const { thread, active } = props;
  const [editing, setEditing] = useState(false);
  const [title, setTitle] = useState(thread.title);
  const input = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (editing) input.current?.select();
  }, [editing]);

  function save(e?: FormEvent) {
    e?.preventDefault();
    const next = title.trim();
    setEditing(false);
    if (next && next !== thread.title) props.onRename(next);
    else setTitle(thread.title);
  }

  if (editing) {
    return (
      <li className="thread-item editing">
        <form onSubmit={save}>
          <input
            ref={input}
            value={title}
            aria-label="Thread title"
            onChange={(e) => setTitle(e.target.value)}
            onBlur={() => save()}
            onKeyDown={(e) => {
              if (e.key === 'Escape') {
                setTitle(thread.title);
                setEditing(false);
              }
            }}
            data-testid="thread-rename-input"
          />
        </form>
      </li>
    );
  }
  return (
    <li className={`thread-item${active ? ' active' : ''}`} data-testid="thread-item" data-thread-id={thread.thread_id}>
      <Link to={paths.thread(thread.thread_id)} className="thread-link" aria-current={active ? 'page' : undefined} title={thread.title}>
        <span className="thread-title">{thread.title || 'Untitled'}</span>
        <span className="thread-meta">
          {thread.model ?? 'no model'} · {relativeTime(thread.updated_at)}
        </span>
      </Link>
      <span className="thread-actions">
        <button
          type="button"
          className="icon-btn"
          aria-label={`Rename ${thread.title}`}
          title="Rename"
          onClick={() => {
            setTitle(thread.title);
            setEditing(true);
          }}
          data-testid="thread-rename"
        >
          ✎
        </button>
        <ConfirmButton
          label="×"
          ariaLabel={`Delete ${thread.title}`}
          confirmLabel="Delete"
          onConfirm={props.onRemove}
          className="icon-btn"
          testId="thread-delete"
        />
      </span>
    </li>
  );
}

function relativeTime(iso: string): string {
  const then = Date.parse(iso);
  if (Number.isNaN(then)) return '';
  const s = Math.round((Date.now() - then) / 1000);
  if (s < 60) return 'just now';
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86400) return `${Math.floor(s / 3600)} h ago`;
  if (s < 7 * 86400) return `${Math.floor(s / 86400)} d ago`;
  return new Date(then).toLocaleDateString();
}
