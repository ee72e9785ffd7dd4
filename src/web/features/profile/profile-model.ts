import { PASSWORD_MAX, PASSWORD_MIN } from '../../../shared/constants';
import { t } from '../../lib/i18n';

/*
 * The profile page's checks and helpers (decision 022). The server checks the same things
 * with its own schemas; these only spare a round trip and say what is wrong next to the field.
 * No zod here (the page does not load the schemas' chunk for two fields).
 */

/** NAME_MAX of shared/schemas/auth.ts, which would bring zod along. */
const NAME_MAX = 100;

export interface NameValues {
  nome: string;
  cognome: string;
}
export type NameErrors = Partial<Record<keyof NameValues, string>>;

/** Name and surname, trimmed, both required; `changes` holds only what differs from `saved`. */
export function validateNames(
  values: NameValues,
  saved: NameValues,
): { ok: true; changes: Partial<NameValues> } | { ok: false; errors: NameErrors } {
  const errors: NameErrors = {};
  const trimmed = { nome: values.nome.trim(), cognome: values.cognome.trim() };
  for (const field of ['nome', 'cognome'] as const) {
    if (trimmed[field] === '') errors[field] = t('profile.nameRequired');
    else if (trimmed[field].length > NAME_MAX) errors[field] = t('profile.nameMax', { max: NAME_MAX });
  }
  if (errors.nome || errors.cognome) return { ok: false, errors };
  const changes: Partial<NameValues> = {};
  if (trimmed.nome !== saved.nome) changes.nome = trimmed.nome;
  if (trimmed.cognome !== saved.cognome) changes.cognome = trimmed.cognome;
  return { ok: true, changes };
}

export interface PasswordValues {
  passwordAttuale: string;
  nuovaPassword: string;
  confermaPassword: string;
}
export type PasswordErrors = Partial<Record<keyof PasswordValues, string>>;

/** The password change: the current one, a new one of 6–128 characters, different, typed twice. */
export function validatePasswordChange(
  values: PasswordValues,
): { ok: true; request: { passwordAttuale: string; nuovaPassword: string } } | { ok: false; errors: PasswordErrors } {
  const errors: PasswordErrors = {};
  if (values.passwordAttuale === '') errors.passwordAttuale = t('profile.enterCurrent');
  if (values.nuovaPassword === '') errors.nuovaPassword = t('profile.enterNew');
  else if (values.nuovaPassword.length < PASSWORD_MIN) errors.nuovaPassword = t('profile.passwordMin', { min: PASSWORD_MIN });
  else if (values.nuovaPassword.length > PASSWORD_MAX) errors.nuovaPassword = t('profile.passwordMax', { max: PASSWORD_MAX });
  else if (values.nuovaPassword === values.passwordAttuale) errors.nuovaPassword = t('profile.passwordSame');
  if (values.confermaPassword === '') errors.confermaPassword = t('profile.repeatNew');
  else if (!errors.nuovaPassword && values.confermaPassword !== values.nuovaPassword) errors.confermaPassword = t('profile.mismatch');
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, request: { passwordAttuale: values.passwordAttuale, nuovaPassword: values.nuovaPassword } };
}

/** The fields in the order they appear: the first with an error takes the focus. */
export const PASSWORD_FIELDS: readonly (keyof PasswordValues)[] = ['passwordAttuale', 'nuovaPassword', 'confermaPassword'];

/**
 * What the browser allows for web push: `unsupported` without service workers, Push API or
 * Notification; `denied` once the person refused notifications for the site; `unavailable`
 * when the server offers no key.
 */
export type PushSupport = 'supported' | 'unsupported' | 'denied' | 'unavailable';

export function pushSupport(
  env: { serviceWorker: boolean; pushManager: boolean; notification: NotificationPermission | null },
  publicKey: string | null,
): PushSupport {
  if (!env.serviceWorker || !env.pushManager || env.notification === null) return 'unsupported';
  if (publicKey === null || publicKey === '') return 'unavailable';
  if (env.notification === 'denied') return 'denied';
  return 'supported';
}

/** A VAPID public key (base64url, as the server sends it) as the bytes `pushManager.subscribe` wants. */
export function base64UrlToBytes(value: string): Uint8Array<ArrayBuffer> {
  const base64 = value.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(value.length / 4) * 4, '=');
  const binary = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
