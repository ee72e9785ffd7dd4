import { sql } from 'drizzle-orm';
import { checkWindow, loadRules, type Executor, type Rules } from '../../src/server/modules/rules/index.js';
import type { PublicRulesDto } from '../../src/shared/schemas/rules.js';
import { addDays, zonedInstant, zonedToday } from '../../src/shared/time.js';

/*
 * The one place a test picks a day to book (issue 46): a day the service's rules allow, asked
 * of the app's own check (`checkWindow`: closures, the weekday's hours, the horizon, the
 * notice), and no planned maintenance on it, so that a test holds on any date, the demo's
 * closure next month included. The lint rule `test-days/no-day-offset` (eslint-rules/test-days.js)
 * refuses a day picked by a bare offset anywhere else in tests/.
 */

export const TIME_ZONE = 'Europe/Rome';

/** What decides whether a day can be booked: the rules with every closure, and the planned maintenance of any bike. */
export interface ServiceDays {
  rules: Rules;
  maintenance: { inizio: Date; fine: Date }[];
}

export interface DayWanted {
  now: Date;
  /** The fewest days ahead: 1 (tomorrow) unless said. */
  from?: number;
  /** How many distinct days, in order: 1 unless said. */
  count?: number;
  /** The windows the test books on each day, each checked by the rules: 10:00–11:00 unless said. */
  windows?: { orarioInizio: string; orarioFine: string }[];
  timeZone?: string;
}

/** Days the rules allow, `count` of them from `from` days ahead, within the horizon; throws when there are too few. */
export function allowedDays({ rules, maintenance }: ServiceDays, want: DayWanted): string[] {
  const { now, from = 1, count = 1, windows = [{ orarioInizio: '10:00', orarioFine: '11:00' }], timeZone = TIME_ZONE } = want;
  const today = zonedToday(now, timeZone);
  const days: string[] = [];
  for (let ahead = from; ahead <= (rules.orizzonteGiorni ?? 366) && days.length < count; ahead++) {
    const day = addDays(today, ahead);
    const [start, end] = [zonedInstant(day, '00:00', timeZone)!, zonedInstant(addDays(day, 1), '00:00', timeZone)!];
    if (maintenance.some((m) => m.inizio < end && m.fine > start)) continue;
    if (windows.every((w) => allows(rules, { dataPrenotazione: day, ...w }, now, timeZone))) days.push(day);
  }
  if (days.length < count) throw new Error(`only ${days.length} of the ${count} days wanted from ${from} days ahead of ${today} are open`);
  return days;
}

/** The first day the rules allow, from `from` days ahead (tomorrow unless said). */
export const allowedDay = (service: ServiceDays, want: Omit<DayWanted, 'count'>): string => allowedDays(service, want)[0]!;

/** The last day the horizon reaches (the booking form's `max`), or null without one. */
export function horizonEnd(rules: Pick<Rules, 'orizzonteGiorni'>, now: Date, timeZone = TIME_ZONE): string | null {
  return rules.orizzonteGiorni === null ? null : addDays(zonedToday(now, timeZone), rules.orizzonteGiorni);
}

function allows(rules: Rules, window: Parameters<typeof checkWindow>[1], now: Date, timeZone: string): boolean {
  try {
    checkWindow(rules, window, { now, timeZone, limits: true });
    return true;
  } catch {
    return false;
  }
}

/** The rules and the maintenance in force in a database, read by the app's own loader. */
export async function readServiceDays(db: Executor): Promise<ServiceDays> {
  const rules = await loadRules(db);
  const { rows } = await db.execute<{ inizio: string | Date; fine: string | Date }>(sql`select inizio, fine from manutenzioni`);
  return { rules, maintenance: rows.map((r) => ({ inizio: new Date(r.inizio), fine: new Date(r.fine) })) };
}

/**
 * The rules as a person reads them (GET /api/regole): what the day check reads. The public
 * answer has no maintenance, and the life-cycle limits the check does not read are left off.
 */
export function fromPublicRules(dto: PublicRulesDto): ServiceDays {
  const { sospensione: _own, chiusure, ...rules } = dto;
  const off = { attesaPagamentoMinuti: null, mancatoRitiroMinuti: null, conservazioneMesi: 24, sospensione: null, updatedAt: new Date(0), updatedBy: null };
  // The answer is already one sede's (issue 47): its hours, its closures and every sede's.
  const sede = { orariSede: new Map(), sediAperte: [] as { id: number; nome: string }[] };
  return { rules: { ...rules, ...off, ...sede, chiusure: chiusure.map((c, id) => ({ id, sedeId: null, ...c })) }, maintenance: [] };
}
