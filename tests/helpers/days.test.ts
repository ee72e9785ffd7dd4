import { describe, expect, it } from 'vitest';
import { checkWindow, type Rules } from '../../src/server/modules/rules/index.js';
import { defaultRules } from '../../src/server/modules/rules/store.js';
import { demoClosureAndMaintenance } from '../../src/server/seed/seed-history.js';
import { addDays, zonedInstant, zonedToday } from '../../src/shared/time.js';
import { testConfig } from './app.js';
import { allowedDay, allowedDays, TIME_ZONE, type DayWanted, type ServiceDays } from './days.js';

/*
 * The day helper (tests/helpers/days.ts) against every day of a year as "today", at three
 * hours of it, with the demo's closure and maintenance as the seed makes them for that day:
 * each day picked passes the app's own check of the rules, lies outside the closure and the
 * maintenance, and is as far ahead as asked. The year runs over a new year and 29 February.
 */

const FIRST_TODAY = '2027-12-01';
const HOURS = ['00:01', '09:00', '23:59'];
const EARLY = { orarioInizio: '06:00', orarioFine: '06:30' };
const LATE = { orarioInizio: '22:00', orarioFine: '23:00' };
/** What the specs ask for: tomorrow, a few days ahead, the waitlist's three days, a week of days, early and late windows. */
const WANTS: Omit<DayWanted, 'now'>[] = [{}, { from: 2 }, { from: 3 }, { from: 9, count: 3, windows: [EARLY] }, { count: 7, windows: [EARLY, LATE] }];

/** The demo as the seed leaves it on `today` (the rules at their defaults). */
function demo(today: string, rules: Partial<Rules> = {}): ServiceDays {
  const { closure, maintenance } = demoClosureAndMaintenance(today, TIME_ZONE);
  const chiusure = [{ id: 1, sedeId: null, ...closure }];
  return {
    rules: { ...defaultRules(testConfig()), chiusure, updatedAt: new Date(0), updatedBy: null, orariSede: new Map(), sediAperte: [], ...rules },
    maintenance: [maintenance],
  };
}

/** Every breach of the wants over the year, as a line each (none expected). */
function breaches(rules: Partial<Rules> = {}): string[] {
  const found: string[] = [];
  for (let i = 0; i < 366; i++) {
    const today = addDays(FIRST_TODAY, i);
    const service = demo(today, rules);
    const closure = service.rules.chiusure[0]!;
    const maintenanceDay = zonedToday(service.maintenance[0]!.inizio, TIME_ZONE);
    for (const now of HOURS.map((h) => zonedInstant(today, h, TIME_ZONE)!)) {
      for (const want of WANTS) {
        const days = allowedDays(service, { ...want, now });
        const at = `${now.toISOString()} ${JSON.stringify(want)}: ${days.join(', ')}`;
        if (days.length !== (want.count ?? 1) || new Set(days).size !== days.length) found.push(`${at}: not the days asked for`);
        if (days[0]! < addDays(today, want.from ?? 1) || days.some((d, n) => n > 0 && d <= days[n - 1]!)) found.push(`${at}: too near or out of order`);
        for (const day of days) {
          if (closure.dal <= day && day <= closure.al) found.push(`${at}: ${day} is closed`);
          if (day === maintenanceDay) found.push(`${at}: ${day} has a maintenance`);
          for (const w of want.windows ?? [{ orarioInizio: '10:00', orarioFine: '11:00' }]) {
            try {
              checkWindow(service.rules, { dataPrenotazione: day, ...w }, { now, timeZone: TIME_ZONE, limits: true });
            } catch (e) {
              found.push(`${at}: ${day} ${w.orarioInizio} refused: ${(e as Error).message}`);
            }
          }
        }
      }
    }
  }
  return found;
}

describe('a day the rules allow', () => {
  it('on every day of a year, with the demo closure and maintenance, is open, outside both and as far ahead as asked', () => {
    expect(breaches()).toEqual([]);
  });

  it('with hours by weekday, a notice and a shorter horizon, too', () => {
    const orari = [...defaultRules(testConfig()).orari.slice(0, 5), { apertura: '05:00', chiusura: '13:00' }, null];
    // The late window is outside Saturday's hours and Sunday is closed: those days are never picked.
    expect(breaches({ orari, preavvisoMinimoMinuti: 120, orizzonteGiorni: 21 })).toEqual([]);
  });

  it("skips the demo closure that a bare offset meets (the waitlist spec on 29 November)", () => {
    const now = zonedInstant('2026-11-29', '07:00', TIME_ZONE)!;
    expect(addDays('2026-11-29', 10)).toBe('2026-12-09');
    expect(addDays('2026-11-29', 11)).toBe('2026-12-10');
    expect(allowedDays(demo('2026-11-29'), { now, from: 9, count: 3, windows: [EARLY] })).toEqual(['2026-12-08', '2026-12-09', '2026-12-13']);
    // A week ahead is the demo maintenance's day.
    expect(allowedDay(demo('2026-11-29'), { now, from: 7 })).toBe('2026-12-07');
    // Over the year, a bare offset of 10 or 11 days lands in the closure on some day of every month.
    const hit = Array.from({ length: 366 }, (_, i) => addDays(FIRST_TODAY, i)).filter((today) => {
      const { closure } = demoClosureAndMaintenance(today, TIME_ZONE);
      return [10, 11].some((n) => closure.dal <= addDays(today, n) && addDays(today, n) <= closure.al);
    });
    expect(new Set(hit.map((d) => d.slice(0, 7))).size).toBe(12);
  });

  it('refuses to answer when the horizon has too few open days', () => {
    const now = zonedInstant('2026-12-07', '12:00', TIME_ZONE)!;
    const closed = demo('2026-11-29', { orizzonteGiorni: 5 });
    expect(() => allowedDays(closed, { now, from: 2, count: 2 })).toThrow(/only 1 of the 2 days/);
  });
});
