import type { Connection, Dialect, ReviewMode } from '@aigis/contracts';
import { useEffect, useReducer, type FormEvent } from 'react';
import { navigate } from '../../app/router';
import { paths } from '../../app/routes';
import { ApiError } from '../../lib/api-error';
import {
  DEFAULT_PORT_TEXT,
  emptyForm,
  formFromConnection,
  formValuesFromUrl,
  passwordWillBeDropped,
  toConnectionInput,
  validateForm,
  type ConnectionFormValues,
} from './connection-form-model';
import { connectionsApi } from './connections-api';
import { useConnections } from './connections-context';
import { usePolicyForm } from './ConnectionPolicyFields';
import type { TestOutcome } from './TestResultView';

export type FormErrors = Partial<Record<keyof ConnectionFormValues, string>>;

export interface ConnectionFormState {
  saved: Connection | null;
  values: ConnectionFormValues;
  /** Review before run: kept beside the connection fields (it says how queries run, not where the database is). */
  review: ReviewMode;
  errors: FormErrors;
  url: string;
  urlError: string | null;
  loadError: ApiError | null;
  saveError: ApiError | null;
  busy: boolean;
  test: TestOutcome | null;
  justSaved: boolean;
  /** The last save removed the stored password (the server, user or TLS changed without a new one). */
  passwordDropped: boolean;
}

type Action =
  | { type: 'loaded'; connection: Connection }
  | { type: 'load_failed'; error: ApiError }
  | { type: 'field'; key: keyof ConnectionFormValues; value: string }
  | { type: 'dialect'; dialect: Dialect }
  | { type: 'review'; review: ReviewMode }
  | { type: 'touched' }
  | { type: 'url'; text: string }
  | { type: 'invalid'; errors: FormErrors }
  | { type: 'saving' }
  | { type: 'saved'; connection: Connection; passwordDropped: boolean }
  | { type: 'save_failed'; error: ApiError }
  | { type: 'test'; outcome: TestOutcome; tested?: Connection };

export const initialFormState: ConnectionFormState = {
  saved: null,
  values: emptyForm(),
  review: 'expensive',
  errors: {},
  url: '',
  urlError: null,
  loadError: null,
  saveError: null,
  busy: false,
  test: null,
  justSaved: false,
  passwordDropped: false,
};

/** Every change of the form, in one place (pure, so it is tested without a browser). */
export function connectionFormReducer(state: ConnectionFormState, action: Action): ConnectionFormState {
  switch (action.type) {
    case 'loaded':
      return { ...state, saved: action.connection, values: formFromConnection(action.connection), review: action.connection.review };
    case 'load_failed':
      return { ...state, loadError: action.error };
    case 'field':
      return { ...state, values: { ...state.values, [action.key]: action.value }, errors: { ...state.errors, [action.key]: undefined }, justSaved: false };
    case 'dialect': {
      const v = state.values;
      const port = v.port === '' || Object.values(DEFAULT_PORT_TEXT).includes(v.port) ? DEFAULT_PORT_TEXT[action.dialect] : v.port;
      // A default port follows the dialect; one the person typed stays. A database name is not a file name.
      const database = v.dialect === 'sqlite' || action.dialect === 'sqlite' ? '' : v.database;
      return { ...state, values: { ...v, dialect: action.dialect, port, database } };
    }
    case 'review':
      return { ...state, review: action.review, justSaved: false };
    case 'touched':
      return { ...state, justSaved: false };
    case 'url': {
      if (!action.text.trim()) return { ...state, url: action.text, urlError: null };
      const parsed = formValuesFromUrl(action.text);
      if ('error' in parsed) return { ...state, url: action.text, urlError: parsed.error };
      const values = { ...state.values, ...parsed.values, name: state.values.name || parsed.values.name || '' };
      return { ...state, url: action.text, urlError: null, values, errors: {} };
    }
    case 'invalid':
      return { ...state, errors: action.errors };
    case 'saving':
      return { ...state, errors: {}, busy: true, saveError: null };
    case 'saved':
      return {
        ...state,
        busy: false,
        saved: action.connection,
        values: { ...formFromConnection(action.connection), password: '', dialect: state.values.dialect },
        passwordDropped: action.passwordDropped,
        justSaved: true,
      };
    case 'save_failed':
      return { ...state, busy: false, saveError: action.error };
    case 'test':
      return { ...state, test: action.outcome, saved: action.tested ?? state.saved };
  }
}

/** The add/edit connection form: its state, loading, saving, and testing right after saving. */
export function useConnectionForm(connectionId: string | undefined) {
  const { upsertLocal } = useConnections();
  const [state, dispatch] = useReducer(connectionFormReducer, initialFormState);
  const policy = usePolicyForm();
  const loadPolicy = policy.load;

  useEffect(() => {
    if (!connectionId) return;
    let alive = true;
    connectionsApi
      .get(connectionId)
      .then((connection) => {
        if (!alive) return;
        dispatch({ type: 'loaded', connection });
        loadPolicy(connection);
      })
      .catch((err) => alive && dispatch({ type: 'load_failed', error: ApiError.from(err) }));
    return () => {
      alive = false;
    };
  }, [connectionId, loadPolicy]);

  async function runTest(conn: Connection) {
    dispatch({ type: 'test', outcome: { state: 'running' } });
    try {
      const result = await connectionsApi.test(conn.id);
      // The list shows what the last test found (a red warning for an elevated role).
      const tested = { ...conn, elevated_privileges: result.elevated_privileges };
      dispatch({ type: 'test', outcome: { state: 'ok', result }, tested });
      upsertLocal(tested);
    } catch (err) {
      dispatch({ type: 'test', outcome: { state: 'failed', error: ApiError.from(err) } });
    }
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    const errors = validateForm(state.values);
    const policyOk = policy.validate();
    if (Object.keys(errors).length > 0 || !policyOk) return dispatch({ type: 'invalid', errors });
    dispatch({ type: 'saving' });
    const { saved, values, review } = state;
    try {
      const input = { ...toConnectionInput(values), review, ...policy.input() };
      const conn = saved ? await connectionsApi.update(saved.id, input) : await connectionsApi.create(input);
      dispatch({ type: 'saved', connection: conn, passwordDropped: Boolean(saved?.has_password && !conn.has_password && !values.password) });
      upsertLocal(conn);
      policy.load(conn);
      if (!connectionId) navigate(paths.editConnection(conn.id), { replace: true });
      void runTest(conn);
    } catch (err) {
      dispatch({ type: 'save_failed', error: ApiError.from(err) });
    }
  }

  return {
    state,
    editing: Boolean(connectionId),
    willDropPassword: passwordWillBeDropped(state.saved, state.values),
    setField: <K extends keyof ConnectionFormValues>(key: K, value: ConnectionFormValues[K]) => dispatch({ type: 'field', key, value }),
    setDialect: (dialect: Dialect) => dispatch({ type: 'dialect', dialect }),
    setReview: (review: ReviewMode) => dispatch({ type: 'review', review }),
    applyUrl: (text: string) => dispatch({ type: 'url', text }),
    touch: () => dispatch({ type: 'touched' }),
    policy,
    runTest,
    submit,
  };
}

