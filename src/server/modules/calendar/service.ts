import { and, asc, eq, gte, inArray } from 'drizzle-orm';
import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import { biciclette } from '../bikes/tables.js';
import { bookingStato, isBooking, prenotazioni } from '../bookings/tables.js';
import { preferenzeUtente } from '../profile/tables.js';
import { hashCalendarToken } from '../profile/index.js';
import { users } from '../users/tables.js';
import type { Lingua } from '../../../shared/i18n/index.js';
import { tFor } from '../../../shared/i18n/all.js';
import { sediNames, type SediNames } from '../sedi/index.js';
import { buildCalendar, type CalendarEvent } from './ical.js';

/** The feed shows the bookings of the last 90 days and every future one. */
export const FEED_PAST_DAYS = 90;

/** The user whose feed this token opens, or null (unknown or revoked). */
export async function userOfCalendarToken(db: Db, token: string): Promise<number | null> {
  const [row] = await db
    .select({ userId: preferenzeUtente.userId })
    .from(preferenzeUtente)
    .where(eq(preferenzeUtente.calendarioTokenHash, hashCalendarToken(token)));
  return row?.userId ?? null;
}

const bookingColumns = {
  id: prenotazioni.id,
  inizio: prenotazioni.inizio,
  fine: prenotazioni.fine,
  destinazione: prenotazioni.destinazione,
  stato: prenotazioni.stato,
  updatedAt: prenotazioni.updatedAt,
  numero: biciclette.numero,
  modello: biciclette.modello,
  sedeId: prenotazioni.sedeId,
};

type BookingRow = {
  id: number;
  inizio: Date;
  fine: Date;
  destinazione: string | null;
  stato: 'attiva' | 'completata' | 'cancellata';
  updatedAt: Date;
  numero: string;
  modello: string;
  sedeId: number;
};

/** `text · <the sede's name>` with several open sedi, else `text` as it is. */
const withSede = (text: string, sedi: SediNames, sedeId: number) => {
  const nome = sedi.several ? sedi.names.get(sedeId) : undefined;
  return nome === undefined ? text : `${text} · ${nome}`;
};

/**
 * A booking as an event, its texts in the reader's language (the destination as the person wrote
 * it). With several sedi (issue 47) the summary names the bike's sede, as the dashboard's card does.
 */
function toEvent(row: BookingRow, config: Pick<Config, 'publicUrl'>, lingua: Lingua, sedi: SediNames): CalendarEvent {
  const t = tFor(lingua);
  const host = new URL(config.publicUrl).hostname;
  const description = [
    row.destinazione ? t('calendarFeed.destination', { destinazione: row.destinazione }) : null,
    t('calendarFeed.description', { id: String(row.id) }),
  ]
    .filter(Boolean)
    .join('\n');
  return {
    uid: `prenotazione-${row.id}@${host}`,
    start: row.inizio,
    end: row.fine,
    summary: withSede(t('calendarFeed.summary', { numero: row.numero, modello: row.modello }), sedi, row.sedeId),
    location: row.destinazione,
    description,
    status: row.stato === 'cancellata' ? 'CANCELLED' : 'CONFIRMED',
    lastModified: row.updatedAt,
    // Seconds since the epoch of the last change: grows with every change, as SEQUENCE must.
    sequence: Math.floor(row.updatedAt.getTime() / 1000),
    url: `${config.publicUrl}/dashboard`,
  };
}

/**
 * The user's feed: active and completed bookings whose end is within the last 90 days or
 * later. Cancelled bookings are left out: a subscribed calendar is replaced as a whole at
 * each refresh, so a booking that leaves the feed leaves the calendar too, while a
 * STATUS:CANCELLED event would stay there (struck through in some clients) for every
 * no-show and expired payment.
 */
export async function calendarFeed(db: Db, config: Pick<Config, 'publicUrl' | 'timeZone'>, userId: number, now: Date): Promise<string> {
  // The feed is the user's: its texts are in the account's language.
  const [owner] = await db.select({ lingua: users.lingua }).from(users).where(eq(users.id, userId));
  const lingua = owner?.lingua ?? 'it';
  const since = new Date(now.getTime() - FEED_PAST_DAYS * 24 * 60 * 60 * 1000);
  const rows = await db
    .select(bookingColumns)
    .from(prenotazioni)
    .innerJoin(biciclette, eq(biciclette.id, prenotazioni.biciId))
    .where(and(eq(prenotazioni.userId, userId), inArray(prenotazioni.stato, ['attiva', 'completata']), gte(prenotazioni.fine, since)))
    .orderBy(asc(prenotazioni.inizio), asc(prenotazioni.id));
  const sedi = await sediNames(db);
  return buildCalendar(
    rows.map((r) => toEvent({ ...r, stato: bookingStato(r.stato) }, config, lingua, sedi)),
    { timeZone: config.timeZone, now, name: tFor(lingua)('calendarFeed.name'), method: 'PUBLISH' },
  );
}

/**
 * One booking of its owner as an .ics file (`Aggiungi al calendario`), or null when the
 * booking is not theirs. A cancelled booking comes out as STATUS:CANCELLED with the same
 * UID, so that importing it cancels the event added earlier.
 */
export async function bookingCalendar(
  db: Db,
  config: Pick<Config, 'publicUrl' | 'timeZone'>,
  userId: number,
  bookingId: number,
  now: Date,
  lingua: Lingua = 'it',
): Promise<string | null> {
  const [row] = await db
    .select(bookingColumns)
    .from(prenotazioni)
    .innerJoin(biciclette, eq(biciclette.id, prenotazioni.biciId))
    .where(and(eq(prenotazioni.id, bookingId), eq(prenotazioni.userId, userId), isBooking));
  if (!row) return null;
  return buildCalendar([toEvent({ ...row, stato: bookingStato(row.stato) }, config, lingua, await sediNames(db))], { timeZone: config.timeZone, now, method: 'PUBLISH' });
}
