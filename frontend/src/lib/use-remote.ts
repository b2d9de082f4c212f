import { useCallback, useEffect, useState, type Dispatch, type SetStateAction } from 'react';
import { ApiError } from './api-error';

export interface Remote<T> {
  data: T;
  /** For local updates after a write, without a round trip. */
  setData: Dispatch<SetStateAction<T>>;
  /** Until the first load completes; later refreshes keep showing the data they replace. */
  loading: boolean;
  error: ApiError | null;
  refresh(): Promise<void>;
}

/** Data loaded from the API on mount and on refresh; a failed load keeps the last data and reports the error. */
export function useRemote<T>(load: () => Promise<T>, initial: T): Remote<T> {
  const [data, setData] = useState<T>(initial);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<ApiError | null>(null);

  const refresh = useCallback(async () => {
    try {
      setData(await load());
      setError(null);
    } catch (err) {
      setError(ApiError.from(err));
    } finally {
      setLoading(false);
    }
  }, [load]);

  useEffect(() => {
    void refresh();
  }, [refresh]);

  return { data, setData, loading, error, refresh };
}
