import type { ValidateSiglaResponse } from '../../../shared/schemas/auth';
import { SIGLA_MAX } from '../../../shared/schemas/auth';
import type { Translate } from '../../../shared/i18n';
import { normaliseSigla, SIGLA_PATTERN } from '../../../shared/sigla';

export type ResidentData = Extract<ValidateSiglaResponse, { valid: true }>['data'];

/** What the registration form knows about the resident code typed so far. */
export type SiglaStatus =
  /** Nothing typed: an external user. */
  | { kind: 'empty' }
  /** Waiting for the pause in typing, or for the server's answer. */
  | { kind: 'checking'; code: string }
  | { kind: 'valid'; code: string; data: ResidentData }
  /** Unknown, inactive, malformed, or the check failed (network error): treated as invalid. */
  | { kind: 'invalid'; code: string };

/** The answer of the check for one code, as the query holds it. */
export interface SiglaAnswer {
  /** The code the answer is for. */
  code: string;
  result: ValidateSiglaResponse | undefined;
  failed: boolean;
}

/** The code as the server compares it (trimmed, upper-case); '' when empty. */
export function siglaCode(raw: string | null | undefined): string {
  return normaliseSigla(raw ?? '');
}

/** A code the server would refuse anyway: no need to ask it. */
export function isWellFormedSigla(code: string): boolean {
  return code.length <= SIGLA_MAX && SIGLA_PATTERN.test(code);
}

/**
 * The status of the typed code. Only an answer for exactly that code counts, so a late
 * answer for an older code (typed before the last change) is never shown.
 */
export function siglaStatus(code: string, answer: SiglaAnswer | null): SiglaStatus {
  if (code === '') return { kind: 'empty' };
  if (!isWellFormedSigla(code)) return { kind: 'invalid', code };
  if (!answer || answer.code !== code) return { kind: 'checking', code };
  if (answer.failed) return { kind: 'invalid', code };
  if (!answer.result) return { kind: 'checking', code };
  return answer.result.valid ? { kind: 'valid', code, data: answer.result.data } : { kind: 'invalid', code };
}

/** The name fields to fill from a valid code: only the empty ones, none when both are typed. */
export function namesToFill(
  current: { nome: string | undefined; cognome: string | undefined },
  data: ResidentData,
): Partial<Record<'nome' | 'cognome', string>> {
  const fill: Partial<Record<'nome' | 'cognome', string>> = {};
  if (!current.nome?.trim()) fill.nome = data.nome;
  if (!current.cognome?.trim()) fill.cognome = data.cognome;
  return fill;
}

/** The toast's text after filling names from a valid code; null when nothing was filled. */
export function autofillDescription(fill: Partial<Record<'nome' | 'cognome', string>>, t: Translate): string | null {
  if (fill.nome !== undefined && fill.cognome !== undefined) {
    return t('registrationPage.autofillBoth', { nome: fill.nome, cognome: fill.cognome });
  }
  if (fill.nome !== undefined) return t('registrationPage.autofillNome', { nome: fill.nome });
  if (fill.cognome !== undefined) return t('registrationPage.autofillCognome', { cognome: fill.cognome });
  return null;
}
