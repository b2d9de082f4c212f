import { createContext, useContext, useState } from 'react';
import { Link } from '../../app/router';
import { paths } from '../../app/routes';
import { ApiError } from '../../lib/api-error';
import { ErrorBox } from '../../ui/ErrorBox';
import { knowledgeApi } from './knowledge-api';
import { LIMITS } from './knowledge-model';
import './knowledge.css';

/** Where a thread's answers are saved as examples: its connection (absent where nothing can be saved). */
export const ExampleTargetContext = createContext<{ connectionId: string; threadId: string } | null>(null);

type State = { step: 'idle' } | { step: 'asking' } | { step: 'saving' } | { step: 'saved' } | { step: 'failed'; error: ApiError };

/**
 * "Save as example" under an answer's SQL: one click saves it with the question of its turn. The server takes
 * the SQL from the thread's tool call and runs it before keeping it, so only SQL that ran is saved. After a
 * `SQL:` message no question was asked, so one is asked for here.
 */
export function SaveAsExample({ callId, hasQuestion }: { callId: string; hasQuestion: boolean }) {
  const target = useContext(ExampleTargetContext);
  const [state, setState] = useState<State>({ step: 'idle' });
  const [typed, setTyped] = useState('');
  if (!target) return null;

  async function save(question?: string) {
    setState({ step: 'saving' });
    try {
      await knowledgeApi.saveAnswer(target!.connectionId, { thread_id: target!.threadId, message_id: callId, ...(question ? { question } : {}) });
      setState({ step: 'saved' });
    } catch (err) {
      setState({ step: 'failed', error: ApiError.from(err) });
    }
  }

  if (state.step === 'saved') {
    return (
      <p className="save-example-done small" role="status" data-testid="save-example-done">
        Saved as an example. <Link to={paths.knowledge(target.connectionId)}>See the examples</Link>
      </p>
    );
  }
  if (state.step === 'asking') {
    const text = typed.trim();
    return (
      <form
        className="save-example-ask"
        onSubmit={(e) => {
          e.preventDefault();
          if (text) void save(text);
        }}
      >
        <input
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
          placeholder="The question this SQL answers"
          maxLength={LIMITS.text}
          aria-label="The question this SQL answers"
          autoFocus
          data-testid="save-example-question"
        />
        <button type="submit" className="btn btn-primary btn-small" disabled={!text} data-testid="save-example-submit">
          Save
        </button>
        <button type="button" className="btn btn-ghost btn-small" onClick={() => setState({ step: 'idle' })}>
          Cancel
        </button>
      </form>
    );
  }
  return (
    <>
      <button
        type="button"
        className="btn btn-ghost btn-small save-example"
        disabled={state.step === 'saving'}
        onClick={() => (hasQuestion ? void save() : setState({ step: 'asking' }))}
        title="Keep this question and SQL as an example the model sees for similar questions"
        data-testid="save-example"
      >
        {state.step === 'saving' ? 'Checking the SQL…' : 'Save as example'}
      </button>
      {state.step === 'failed' && <ErrorBox code={state.error.code} message={state.error.message} details={state.error.details} />}
    </>
  );
}
