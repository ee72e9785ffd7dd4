import type { AvailabilityRequest } from '../../../shared/schemas/booking.js';
import { closureText, hoursText, tooLongText, tooShortNoticeText, weekdayIndex } from '../../../shared/rules-text.js';
import type { DayHours } from '../../../shared/schemas/rules.js';
import { testo, type Testo } from '../../../shared/i18n/index.js';
import { addDays, zonedInstant, zonedToday } from '../../../shared/time.js';
import { badRequest } from '../../http/errors.js';
import type { Rules } from './store.js';

/** A duration as the catalogue's `rules.tooLong` and `rules.tooShortNotice` take it: whole hours, minutes, or both. */
export function durationValues(minutes: number): { forma: 'ore' | 'minuti' | 'entrambi'; ore: number; minuti: number } {
  const ore = Math.floor(minutes / 60);
  const minuti = minutes % 60;
  return { forma: ore === 0 ? 'minuti' : minuti === 0 ? 'ore' : 'entrambi', ore, minuti };
}

const WEEKDAY_KEYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;

/** `Il lunedì il servizio è aperto dalle 07:00 alle 23:00` / `La domenica il servizio è chiuso`, in either language. */
export function hoursRefusal(date: string, hours: DayHours): Testo {
  const giorno = WEEKDAY_KEYS[weekdayIndex(date)]!;
  return hours ? testo('rules.openHours', { giorno, apertura: hours.apertura, chiusura: hours.chiusura }) : testo('rules.closedDay', { giorno });
}

/** `Una prenotazione può durare al massimo 3 ore`, in either language. */
export const tooLongRefusal = (maxMinutes: number): Testo => testo('rules.tooLong', durationValues(maxMinutes));

/** How far in the past today's start may lie (a person filling the form at 10:02 for 10:00). */
export const START_GRACE_MINUTES = 5;

export interface Window {
  inizio: Date;
  fine: Date;
}

export interface WindowCheck {
  now: Date;
  timeZone: string;
  /**
   * Apply the fair-use limits (maximum duration, minimum notice, horizon). False for a
   * booking made by an admin (issue 20): hours, closures and every invariant still apply.
   */
  limits: boolean;
}

/**
 * Checks a window against the time rules of behaviour.md §6 and the service's rules (issue
 * 20) and turns it into instants. Dates and times are wall-clock in TZ_APP: the day's hours
 * are compared as wall times, the duration as real time (a 01:00–04:00 booking on the night
 * the clocks go forward lasts 2 hours). The schema has already checked the formats and that
 * start < end as text. Throws a 400 (its message in the request's language); returns the window otherwise.
 */
export function checkWindow(rules: Rules, w: AvailabilityRequest, at: WindowCheck): Window {
  const { now, timeZone, limits } = at;
  const today = zonedToday(now, timeZone);
  if (w.dataPrenotazione < today) {
    throw badRequest('Non puoi prenotare per una data passata', 'DATE_IN_PAST', { fields: { dataPrenotazione: 'Data passata' } });
  }
  if (limits && rules.orizzonteGiorni !== null && w.dataPrenotazione > addDays(today, rules.orizzonteGiorni)) {
    throw badRequest(testo('rules.beyondHorizon', { giorni: rules.orizzonteGiorni }), 'BEYOND_HORIZON', {
      fields: { dataPrenotazione: 'Data troppo lontana' },
    });
  }
  const closure = rules.chiusure.find((c) => c.dal <= w.dataPrenotazione && w.dataPrenotazione <= c.al);
  if (closure) {
    throw badRequest(closureText(closure), 'CLOSED', { fields: { dataPrenotazione: 'Servizio chiuso' } });
  }
  const hours = rules.orari[weekdayIndex(w.dataPrenotazione)] ?? null;
  if (!hours || w.orarioInizio < hours.apertura || w.orarioFine > hours.chiusura) {
    throw badRequest(hoursText(w.dataPrenotazione, hours), 'OUTSIDE_HOURS', {
      fields: hours ? { orarioInizio: 'Fuori orario' } : { dataPrenotazione: 'Servizio chiuso' },
    });
  }
  const inizio = zonedInstant(w.dataPrenotazione, w.orarioInizio, timeZone);
  const fine = zonedInstant(w.dataPrenotazione, w.orarioFine, timeZone);
  if (!inizio || !fine) {
    throw badRequest("Orario inesistente in quel giorno per il passaggio all'ora legale", 'NONEXISTENT_TIME');
  }
  if (inizio >= fine) {
    throw badRequest("L'orario di fine deve essere successivo all'orario di inizio", 'INVALID_WINDOW');
  }
  if (inizio.getTime() < now.getTime() - START_GRACE_MINUTES * 60_000) {
    throw badRequest("L'orario di inizio è già passato", 'START_IN_PAST', { fields: { orarioInizio: 'Orario passato' } });
  }
  if (limits && rules.durataMassimaMinuti !== null && fine.getTime() - inizio.getTime() > rules.durataMassimaMinuti * 60_000) {
    throw badRequest(tooLongText(rules.durataMassimaMinuti), 'TOO_LONG', {
      fields: { orarioFine: 'Troppo lunga' },
    });
  }
  if (limits && rules.preavvisoMinimoMinuti !== null && inizio.getTime() - now.getTime() < rules.preavvisoMinimoMinuti * 60_000) {
    throw badRequest(tooShortNoticeText(rules.preavvisoMinimoMinuti), 'TOO_SHORT_NOTICE', {
      fields: { orarioInizio: 'Preavviso insufficiente' },
    });
  }
  return { inizio, fine };
}
