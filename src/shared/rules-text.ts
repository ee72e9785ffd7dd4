import type { DayHours } from './schemas/rules.js';
import { WEEKDAYS } from './weekdays.js';

/** `2026-12-24` → `24/12/2026`. */
export const italianDate = (date: string): string => `${date.slice(8, 10)}/${date.slice(5, 7)}/${date.slice(0, 4)}`;

/** The weekday of a calendar date, Monday = 0 … Sunday = 6 (the index of `orari`). */
export function weekdayIndex(date: string): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return (new Date(Date.UTC(y, m - 1, d)).getUTCDay() + 6) % 7;
}

/** 180 → `3 ore`, 60 → `1 ora`, 90 → `1 ora e 30 minuti`, 45 → `45 minuti`. */
export function italianDuration(minutes: number): string {
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  const hours = h === 1 ? '1 ora' : `${h} ore`;
  const mins = m === 1 ? '1 minuto' : `${m} minuti`;
  if (h === 0) return mins;
  return m === 0 ? hours : `${hours} e ${mins}`;
}

/** `Chiusura natalizia` from 24/12 to 06/01 → the sentence of a refusal (issue 20). */
export function closureSentence(c: { dal: string; al: string; motivo: string }): string {
  return c.dal === c.al
    ? `Il servizio è chiuso il ${italianDate(c.dal)}: ${c.motivo}`
    : `Il servizio è chiuso dal ${italianDate(c.dal)} al ${italianDate(c.al)}: ${c.motivo}`;
}

/** The sentence for a window outside a day's hours. */
export function hoursSentence(date: string, hours: DayHours): string {
  const index = weekdayIndex(date);
  // la domenica, il lunedì … il sabato
  const day = `${index === 6 ? 'La' : 'Il'} ${WEEKDAYS[index]!.toLowerCase()}`;
  return hours ? `${day} il servizio è aperto dalle ${hours.apertura} alle ${hours.chiusura}` : `${day} il servizio è chiuso`;
}
