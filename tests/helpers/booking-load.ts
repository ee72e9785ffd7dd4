import type { Executor } from '../../src/server/modules/rules/index.js';
import { allowedDays, readServiceDays } from './days.js';

const hh = (h: number) => `${String(h).padStart(2, '0')}:00`;
const SLOTS_PER_DAY = 16;

/**
 * Attempt n of a booking load: a bike (of `bikes`), a day (of `days`, from `loadDays`) and an
 * hour of its own (16 one-hour slots a day from 06:00), so that every attempt may succeed and
 * none meets another.
 */
export function slotBooking(n: number, days: readonly string[], bikes: number, destinazione = 'Centro') {
  const slot = Math.floor(n / bikes);
  const dataPrenotazione = days[Math.floor(slot / SLOTS_PER_DAY)];
  if (!dataPrenotazione) throw new Error(`attempt ${n} needs more than ${days.length} days`);
  return { dataPrenotazione, orarioInizio: hh(6 + (slot % SLOTS_PER_DAY)), orarioFine: hh(7 + (slot % SLOTS_PER_DAY)), destinazione, biciId: 1 + (n % bikes) };
}

/** The days `attempts` attempts on `bikes` bikes need, each allowed by the rules in `db` from its first slot to its last. */
export async function loadDays(db: Executor, attempts: number, bikes: number): Promise<string[]> {
  const windows = [{ orarioInizio: hh(6), orarioFine: hh(7) }, { orarioInizio: hh(5 + SLOTS_PER_DAY), orarioFine: hh(6 + SLOTS_PER_DAY) }];
  return allowedDays(await readServiceDays(db), { now: new Date(), count: Math.ceil(attempts / bikes / SLOTS_PER_DAY), windows });
}

/** Waits until `condition` holds (polled every `pollMs`), or fails after `timeoutMs`. */
export async function until(condition: () => boolean | Promise<boolean>, timeoutMs = 30_000, pollMs = 10): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, pollMs));
  }
}
