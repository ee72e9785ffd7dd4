import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { ValidateSiglaResponse } from '../../../shared/schemas/auth';
import { isWellFormedSigla, siglaCode, siglaStatus, type SiglaAnswer, type SiglaStatus } from './sigla-check';

export const SIGLA_CHECK_DEBOUNCE_MS = 300;

/** `value`, once it has not changed for `delayMs`. */
export function useDebouncedValue<T>(value: T, delayMs: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return debounced;
}

/**
 * Checks the resident code as it is typed: GET /api/validate-sigla/:code after a short
 * pause. Each code is its own query, so an answer for a code no longer in the field is
 * ignored (and its request cancelled); a failed request marks the code invalid.
 */
export function useSiglaCheck(raw: string | null | undefined): SiglaStatus {
  const code = siglaCode(raw);
  const settled = useDebouncedValue(code, SIGLA_CHECK_DEBOUNCE_MS);
  const ask = settled !== '' && settled === code && isWellFormedSigla(settled);

  const query = useQuery<ValidateSiglaResponse>({
    queryKey: ['/api/validate-sigla', settled],
    enabled: ask,
  });

  const answer: SiglaAnswer | null = ask
    ? { code: settled, result: query.data, failed: query.isError && !query.isFetching }
    : null;
  return siglaStatus(code, answer);
}
