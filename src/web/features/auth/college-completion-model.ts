import type { Translate } from '../../../shared/i18n';
import { siglaCode, type SiglaStatus } from './sigla-check';

/** The completion form's two paths (issue 49): a resident with a sigla, or an external person. */
export type Path = 'residente' | 'esterno';

export interface CompletionValues {
  nome: string;
  cognome: string;
  path: Path;
  sigla: string;
  privacy: boolean;
}

export type CompletionErrors = Partial<Record<'nome' | 'cognome' | 'sigla' | 'privacy', string>>;

/** POST /api/auth/oidc/completamento's body. */
export interface CompletionRequest {
  nome: string;
  cognome: string;
  siglaResidente?: string;
  privacy: true;
}

/**
 * The form checked as the server will (names 1..100 characters, the sigla only on the resident
 * path and only once the live check said it is valid, the privacy notice read): the request, or
 * each field's error in the page's language.
 */
export function checkCompletion(
  values: CompletionValues,
  sigla: SiglaStatus['kind'],
  t: Translate,
): { request: CompletionRequest; errors: CompletionErrors } | { request: null; errors: CompletionErrors } {
  const errors: CompletionErrors = {};
  const nome = values.nome.trim();
  const cognome = values.cognome.trim();
  if (nome === '') errors.nome = t('collegeCompletion.nameRequired');
  if (cognome === '') errors.cognome = t('collegeCompletion.nameRequired');
  const code = siglaCode(values.sigla);
  if (values.path === 'residente') {
    if (code === '') errors.sigla = t('collegeCompletion.siglaRequired');
    else if (sigla === 'invalid') errors.sigla = t('registrationPage.invalidSigla');
    else if (sigla !== 'valid') errors.sigla = t('collegeCompletion.siglaNotReady');
  }
  if (!values.privacy) errors.privacy = t('collegeCompletion.privacyRequired');
  if (Object.keys(errors).length > 0) return { request: null, errors };
  const request: CompletionRequest = { nome, cognome, privacy: true };
  if (values.path === 'residente') request.siglaResidente = code;
  return { request, errors };
}
