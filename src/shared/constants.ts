import type { MessageKey } from './i18n/index.js';

export const APP_NAME = 'BiciElis';
export const APP_VERSION = '1.0.0';

/** Fee for one booking by an external user, in euro cents. Fixed on the server. */
export const EXTERNAL_FEE_CENTS = 250;
export const CURRENCY = 'eur';

export const PASSWORD_MIN = 6;
export const PASSWORD_MAX = 128;
export const DESTINATION_MAX = 200;
export const PAST_BOOKINGS_SHOWN = 3;

export const DEFAULT_START_TIME = '08:00';
export const DEFAULT_END_TIME = '18:00';

export const LOGIN_REDIRECT_DELAY_MS = 100;
export const CHECKOUT_SUCCESS_REDIRECT_MS = 5000;
export const PAYMENT_DONE_REDIRECT_MS = 3000;

export const TOAST_DURATION_MS = 5000;
export const TOAST_REMOVE_DELAY_MS = 1_000_000;
export const TOAST_LIMIT = 1;
export const TOAST_SWIPE_THRESHOLD_PX = 50;

export const BODY_LIMIT_BYTES = 64 * 1024;

/**
 * Who a booking or a damage report without its person shows (issue 23, decision 029): its
 * owner deleted the account, or it passed the retention period. In Italian: the lists' and the
 * exports' queries write it (SQL); where the reader's language is known, ANONYMOUS_USER_KEY.
 */
export const ANONYMOUS_USER_LABEL = 'Utente anonimo';
/** The same in the reader's language (admin/anonymous-user.json): `t(ANONYMOUS_USER_KEY)`. */
export const ANONYMOUS_USER_KEY = 'anonymousUser.label' satisfies MessageKey;
/** RETENTION_MONTHS when unset: the first start's retention period (decision 029). */
export const RETENTION_MONTHS_DEFAULT = 24;
