import { useId, useState } from 'react';
import { serverFieldErrors, serverMessage } from '../../lib/api-errors';

/** The fields of a closure and of a planned maintenance: a period and its reason. */
export type PeriodField = 'dal' | 'al' | 'motivo';
type PeriodValues = Record<PeriodField, string>;
type Checked<R> = { ok: true; request: R } | { ok: false; errors: Partial<Record<PeriodField, string>> };

/**
 * The state both period forms share (the closure's, the maintenance's): the values, each
 * field's error (cleared as it is edited), the server's refusal by field and in words, and
 * the check that focuses the first mistake.
 */
export function usePeriodForm<R extends PeriodValues>(empty: R, validate: (values: R) => Checked<R>, fallbackMessage: string) {
  const [values, setValues] = useState<R>(empty);
  const [errors, setErrors] = useState<Partial<Record<PeriodField, string>>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const ids = useId();
  const id = (field: PeriodField) => `${ids}-${field}`;

  function set(field: PeriodField, value: string) {
    setValues((v) => ({ ...v, [field]: value }));
    if (errors[field]) setErrors(({ [field]: _cleared, ...rest }) => rest);
  }

  /** The server said no: its field errors by their fields, its sentence above the form. */
  function refused(error: unknown) {
    const fields = serverFieldErrors(error);
    setErrors({ dal: fields.dal, al: fields.al, motivo: fields.motivo });
    setFailure(serverMessage(error) ?? fallbackMessage);
  }

  /** The request, or null after showing the mistakes and focusing the first. */
  function checked(): R | null {
    const result = validate(values);
    if (!result.ok) {
      setErrors(result.errors);
      const first = (['dal', 'al', 'motivo'] as const).find((f) => result.errors[f]);
      if (first) document.getElementById(id(first))?.focus();
      return null;
    }
    setErrors({});
    setFailure(null);
    return result.request;
  }

  /** Back to `start` (the values to show), nothing wrong. */
  function reset(start: R = empty) {
    setValues(start);
    setErrors({});
    setFailure(null);
  }

  return { values, errors, failure, setFailure, ids, id, set, refused, checked, reset };
}

export type PeriodForm<R extends PeriodValues> = ReturnType<typeof usePeriodForm<R>>;
