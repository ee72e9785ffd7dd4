import { addDays } from '../../src/shared/time.js';

const hh = (h: number) => `${String(h).padStart(2, '0')}:00`;

/**
 * Attempt n of a booking load: a bike (of `bikes`), a day and an hour of its own (16 one-hour
 * slots a day from 06:00, days from tomorrow), so that every attempt may succeed and none
 * meets another.
 */
export function slotBooking(n: number, today: string, bikes: number, destinazione = 'Centro') {
  const slot = Math.floor(n / bikes);
  return {
    dataPrenotazione: addDays(today, 1 + Math.floor(slot / 16)),
    orarioInizio: hh(6 + (slot % 16)),
    orarioFine: hh(7 + (slot % 16)),
    destinazione,
    biciId: 1 + (n % bikes),
  };
}

/** Waits until `condition` holds (polled every `pollMs`), or fails after `timeoutMs`. */
export async function until(condition: () => boolean | Promise<boolean>, timeoutMs = 30_000, pollMs = 10): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, pollMs));
  }
}
