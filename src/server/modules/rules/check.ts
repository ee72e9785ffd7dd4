import type { AvailabilityRequest } from '../../../shared/schemas/booking.js';
import { closureText, hoursText, tooLongText, tooShortNoticeText, weekdayIndex } from '../../../shared/rules-text.js';
import { testo } from '../../../shared/i18n/index.js';
import { addDays, zonedInstant, zonedToday } from '../../../shared/time.js';
import { badRequest, notFound } from '../../http/errors.js';
import type { Rules } from './store.js';

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
    throw badRequest(testo('rules.dateInPast'), 'DATE_IN_PAST', { fields: { dataPrenotazione: testo('rules.fieldPastDate') } });
  }
  if (limits && rules.orizzonteGiorni !== null && w.dataPrenotazione > addDays(today, rules.orizzonteGiorni)) {
    throw badRequest(testo('rules.beyondHorizon', { giorni: rules.orizzonteGiorni }), 'BEYOND_HORIZON', {
      fields: { dataPrenotazione: testo('rules.fieldTooFar') },
    });
  }
  const closure = rules.chiusure.find((c) => c.dal <= w.dataPrenotazione && w.dataPrenotazione <= c.al);
  if (closure) {
    throw badRequest(closureText(closure), 'CLOSED', { fields: { dataPrenotazione: testo('rules.fieldClosed') } });
  }
  const hours = rules.orari[weekdayIndex(w.dataPrenotazione)] ?? null;
  if (!hours || w.orarioInizio < hours.apertura || w.orarioFine > hours.chiusura) {
    throw badRequest(hoursText(w.dataPrenotazione, hours), 'OUTSIDE_HOURS', {
      fields: hours ? { orarioInizio: testo('rules.fieldOutsideHours') } : { dataPrenotazione: testo('rules.fieldClosed') },
    });
  }
  const inizio = zonedInstant(w.dataPrenotazione, w.orarioInizio, timeZone);
  const fine = zonedInstant(w.dataPrenotazione, w.orarioFine, timeZone);
  if (!inizio || !fine) {
    throw badRequest(testo('rules.nonexistentTime'), 'NONEXISTENT_TIME');
  }
  if (inizio >= fine) {
    throw badRequest(testo('rules.invalidWindow'), 'INVALID_WINDOW');
  }
  if (inizio.getTime() < now.getTime() - START_GRACE_MINUTES * 60_000) {
    throw badRequest(testo('rules.startInPast'), 'START_IN_PAST', { fields: { orarioInizio: testo('rules.fieldPastTime') } });
  }
  if (limits && rules.durataMassimaMinuti !== null && fine.getTime() - inizio.getTime() > rules.durataMassimaMinuti * 60_000) {
    throw badRequest(tooLongText(rules.durataMassimaMinuti), 'TOO_LONG', {
      fields: { orarioFine: testo('rules.fieldTooLong') },
    });
  }
  if (limits && rules.preavvisoMinimoMinuti !== null && inizio.getTime() - now.getTime() < rules.preavvisoMinimoMinuti * 60_000) {
    throw badRequest(tooShortNoticeText(rules.preavvisoMinimoMinuti), 'TOO_SHORT_NOTICE', {
      fields: { orarioInizio: testo('rules.fieldShortNotice') },
    });
  }
  return { inizio, fine };
}

/**
 * The sede a request is about (issue 47): the one it names, which must be open (404 otherwise,
 * in the person's language), or the person's home sede. A home sede archived since gives the
 * first open one. The open sedi are the rules' (in memory, NOTIFY-refreshed): no query.
 */
export function chosenSede(rules: Pick<Rules, 'sediAperte'>, asked: number | null | undefined, home: number): number {
  const open = (id: number) => rules.sediAperte.some((s) => s.id === id);
  if (asked != null) {
    if (!open(asked)) throw notFound(testo('schemas.sedeNotFound'), 'SEDE_NOT_FOUND');
    return asked;
  }
  return open(home) ? home : (rules.sediAperte[0]?.id ?? home);
}
