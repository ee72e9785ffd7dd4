import { PASSWORD_MAX } from '../constants.js';
import { z } from '../zod-it.js';
import { LINGUE, type Lingua } from '../i18n/index.js';
import { msg } from './message.js';
import { NAME_MAX, newPasswordField } from './auth.js';
import { sedeIdBody } from './sedi.js';

/**
 * The profile page (decision 022): name, reminders, password, calendar feed, web push.
 * Shared by the server routes and the React forms; messages are for a person, in their language
 * (`msg`); the constants below are their Italian, for the server's refusals.
 */

const nameField = z
  .string(msg('schemas.fieldEmpty'))
  .trim()
  .min(1, msg('schemas.fieldEmpty'))
  .max(NAME_MAX, msg('validation.maxChars', { max: NAME_MAX }));

/** PATCH /api/profilo: only the fields sent change; at least one. Other fields are ignored (the email is not changed here). */
export const profileUpdateSchema = z
  .object({
    nome: nameField.optional(),
    cognome: nameField.optional(),
    promemoria: z.boolean(msg('schemas.chooseReminders')).optional(),
    /** The account's language (issue 36). */
    lingua: z.enum(LINGUE, msg('schemas.linguaInvalid')).optional(),
    /** The home sede (issue 47): an open one; the page offers it only when there are several. */
    sedeId: sedeIdBody.optional(),
  })
  .refine(
    (v) => v.nome !== undefined || v.cognome !== undefined || v.promemoria !== undefined || v.lingua !== undefined || v.sedeId !== undefined,
    msg('schemas.nothingToChange'),
  );
export type ProfileUpdateRequest = z.output<typeof profileUpdateSchema>;

/** POST /api/profilo/password. The new password follows the registration rules (6–128 characters). */
export const profilePasswordSchema = z
  .object({
    passwordAttuale: z
      .string(msg('schemas.currentPasswordRequired'))
      .min(1, msg('schemas.currentPasswordRequired'))
      .max(PASSWORD_MAX, msg('schemas.wrongCurrentPassword')),
    nuovaPassword: newPasswordField('schemas.newPasswordRequired'),
  })
  .refine((v) => v.passwordAttuale !== v.nuovaPassword, { ...msg('schemas.samePassword'), path: ['nuovaPassword'] });

/** The token of the calendar feed: 32 random bytes, base64url (43 characters). */
export const CALENDAR_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** GET /api/calendario/:token (any shape is accepted here; a wrong one is simply not found). */
export const calendarFeedParamsSchema = z.object({
  token: z.string().max(200),
});

const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/;
const base64UrlKey = (min: number, max: number) =>
  z
    .string(msg('schemas.invalidSubscription'))
    .min(min, msg('schemas.invalidSubscription'))
    .max(max, msg('schemas.invalidSubscription'))
    .regex(BASE64URL, msg('schemas.invalidSubscription'));

/** The address a browser's push service gave: https only, bounded. */
const endpointField = z
  .string(msg('schemas.invalidSubscription'))
  .max(2048, msg('schemas.invalidSubscription'))
  .pipe(z.url({ protocol: /^https$/, hostname: z.regexes.domain, ...msg('schemas.invalidSubscription') }));

/**
 * POST /api/push/iscrizioni: a browser's PushSubscription as `toJSON()` gives it
 * (`expirationTime` allowed and ignored). p256dh is a 65-byte P-256 point (87 characters
 * in base64url), auth 16 bytes (22 characters).
 */
export const pushSubscriptionSchema = z.object({
  endpoint: endpointField,
  expirationTime: z.number().nullish(),
  keys: z.object(
    {
      p256dh: base64UrlKey(80, 100),
      auth: base64UrlKey(16, 32),
    },
    msg('schemas.invalidSubscription'),
  ),
});
export type PushSubscriptionInput = z.input<typeof pushSubscriptionSchema>;

/** DELETE /api/push/iscrizioni */
export const pushUnsubscribeSchema = z.object({ endpoint: endpointField });

/** GET and PATCH /api/profilo */
export interface ProfileDto {
  nome: string;
  cognome: string;
  email: string;
  /** Reminders (email and web push) before the start and before the end of a ride. */
  promemoria: boolean;
  /** The account's language (issue 36). */
  lingua: Lingua;
  /** The home sede (issue 47): where the booking form opens. */
  sedeId: number;
  /** Whether a calendar feed link exists (the link itself is shown only when made). */
  calendarioAttivo: boolean;
  /** Whether the account has a password (issue 49: one made by a college login has none). */
  password: boolean;
  /** The VAPID public key for `pushManager.subscribe`; null when push cannot be offered. */
  push: { publicKey: string | null };
}

/** POST /api/profilo/calendario */
export interface CalendarLinkDto {
  url: string;
}
