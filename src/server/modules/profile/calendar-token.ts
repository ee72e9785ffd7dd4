import { createHash, randomBytes } from 'node:crypto';

/*
 * The private calendar feed's token (decision 022): the profile makes and keeps it (its hash,
 * in `preferenze_utente`), the calendar module opens the feed it names.
 */

/** A new calendar-feed token: 32 random bytes, base64url (43 characters). Shown once, in the URL. */
export function newCalendarToken(): string {
  return randomBytes(32).toString('base64url');
}

/** What the database keeps of a feed token: its SHA-256, hex. */
export function hashCalendarToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export const calendarFeedUrl = (publicUrl: string, token: string) => `${publicUrl}/api/calendario/${token}`;
