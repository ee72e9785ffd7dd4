import { useQuery } from '@tanstack/react-query';
import type { ValidateSiglaResponse } from '../../../shared/schemas/auth';
import { useDebounced } from '../../lib/use-debounced';
import { isWellFormedSigla, siglaCode, siglaStatus, type SiglaAnswer, type SiglaStatus } from './sigla-check';

export const SIGLA_CHECK_DEBOUNCE_MS = 300;

/**
 * Checks the resident code as it is typed: GET /api/validate-sigla/:code after a short
 * pause. Each code is its own query, so an answer for a code no longer in the field is
 * ignored (and its request cancelled); a failed request marks the code invalid.
 */
export function useSiglaCheck(raw: string | null | undefined): SiglaStatus {
  const code = siglaCode(raw);
  const settled = useDebounced(code, SIGLA_CHECK_DEBOUNCE_MS);
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
