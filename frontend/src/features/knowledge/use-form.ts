import { useState, type FormEvent } from 'react';
import { ApiError } from '../../lib/api-error';
import type { FieldErrors } from './knowledge-model';

/**
 * A knowledge form's state: its values, the field errors found before sending, and the API's error after.
 * `send` resolves once saved (the form is then usually closed by its owner); a failure keeps what was typed.
 */
export function useForm<V extends object>(initial: V, validate: (v: V) => FieldErrors<keyof V & string>, send: (v: V) => Promise<void>) {
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<FieldErrors<keyof V & string>>({});
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);

  const set = <K extends keyof V & string>(key: K, value: V[K]) => {
    setValues((v) => ({ ...v, [key]: value }));
    setErrors((e) => ({ ...e, [key]: undefined }));
  };

  async function submit(e: FormEvent) {
    e.preventDefault();
    const found = validate(values);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    setError(null);
    try {
      await send(values);
    } catch (err) {
      setError(ApiError.from(err));
    } finally {
      setBusy(false);
    }
  }

  return { values, setValues, set, errors, busy, error, submit };
}

/** An action on a listed item (delete), whose failure is shown above the list. */
export function useItemAction() {
  const [error, setError] = useState<ApiError | null>(null);
  async function run(action: () => Promise<void>) {
    setError(null);
    try {
      await action();
    } catch (err) {
      setError(ApiError.from(err));
    }
  }
  return { error, run };
}
