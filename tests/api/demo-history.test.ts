import { sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from '../../src/server/seed/seed.js';
import { foldStatsDelta } from '../../src/server/modules/stats/fold.js';
import { computeStats } from '../../src/server/modules/stats/service.js';
import { ManualClock } from '../../src/server/clock.js';
import { createTestDatabase } from '../helpers/db.js';
import { testConfig } from '../helpers/app.js';

/** Issue 20, "Demo data": the first start looks like a college with a past. */
const NOW = new Date('2026-11-24T15:00:00Z'); // a Tuesday, 16:00 in Rome
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let seedMs = 0;

beforeAll(async () => {
  database = await createTestDatabase();
  const started = performance.now();
  await seedDemo(database.db, pino({ level: 'silent' }), undefined, { now: NOW, timeZone: 'Europe/Rome' });
  seedMs = performance.now() - started;
});
afterAll(async () => {
  await database?.close();
});

const one = async <T extends Record<string, unknown>>(q: ReturnType<typeof sql>) => (await database.db.execute<T>(q)).rows[0]!;

describe('the demo data of the first start', () => {
  it('has about 60 days of past rides: completed, no-shows, cancellations, paid and one refunded, damage reports', async () => {
    const r = await one<{ days: number; completed: number; no_shows: number; by_user: number; future: number; paid: number; refunded: number; damages: number; externals: number }>(sql`
      select (select count(distinct data_prenotazione) from prenotazioni where fine < ${NOW.toISOString()}::timestamptz)::int as days,
             (select count(*) from prenotazioni where stato = 'completata')::int as completed,
             (select count(*) from prenotazioni where motivo_cancellazione = 'mancato_ritiro')::int as no_shows,
             (select count(*) from prenotazioni where motivo_cancellazione = 'utente')::int as by_user,
             (select count(*) from prenotazioni where fine > ${NOW.toISOString()}::timestamptz)::int as future,
             (select count(*) from pagamenti where status = 'completed')::int as paid,
             (select count(*) from pagamenti where status = 'refunded')::int as refunded,
             (select count(*) from segnalazioni_danni)::int as damages,
             (select count(distinct p.user_id) from prenotazioni p join users u on u.id = p.user_id where not u.is_residente)::int as externals`);
    console.log(`      demo seed: ${seedMs.toFixed(0)} ms; ${JSON.stringify(r)}`);
    expect(r.days).toBeGreaterThanOrEqual(50);
    expect(r.completed).toBeGreaterThan(600);
    expect(r.no_shows).toBeGreaterThan(0);
    expect(r.by_user).toBeGreaterThan(0);
    expect(r.future).toBe(1); // only the demo ride in progress
    expect(r.paid).toBeGreaterThan(0);
    expect(r.refunded).toBeGreaterThan(0);
    expect(r.damages).toBeGreaterThan(0);
    expect(r.externals).toBeGreaterThan(1);
  });

  it('never has two bookings of one bike at once, nor a demo account with a no-show', async () => {
    const r = await one<{ overlaps: number; demo_no_shows: number }>(sql`
      select (select count(*) from prenotazioni a join prenotazioni b on a.bici_id = b.bici_id and a.id < b.id
               and tstzrange(a.inizio, a.fine) && tstzrange(b.inizio, b.fine))::int as overlaps,
             (select count(*) from prenotazioni p join users u on u.id = p.user_id
               where u.email like '%@bicielis.demo' and p.motivo_cancellazione = 'mancato_ritiro')::int as demo_no_shows`);
    expect(r).toEqual({ overlaps: 0, demo_no_shows: 0 });
  });

  it('has a closure next month and a planned maintenance of bike 14 next week', async () => {
    const c = await one<{ dal: string; al: string }>(sql`select dal::text, al::text from chiusure`);
    expect(c).toEqual({ dal: '2026-12-10', al: '2026-12-12' });
    const m = await one<{ numero: string; inizio: Date }>(sql`select b.numero, m.inizio from manutenzioni m join biciclette b on b.id = m.bici_id`);
    expect(m.numero).toBe('14');
    expect(new Date(m.inizio).toISOString()).toBe('2026-12-01T08:00:00.000Z');
  });

  it('shows in the statistics of the last 30 days', async () => {
    await foldStatsDelta(database.db);
    const stats = await computeStats({ db: database.db, clock: new ManualClock(NOW), config: testConfig() }, 30);
    const rides = stats.days.reduce((n, d) => n + d.rides, 0);
    expect(rides).toBeGreaterThan(300);
    expect(stats.days.filter((d) => d.rides > 0).length).toBeGreaterThanOrEqual(28);
    // The waitlist's chart has something to show (issue 21): unserved demand at the busy hours.
    expect(stats.waitlist.unserved).toBeGreaterThan(10);
    expect(stats.waitlist.served).toBeGreaterThan(0);
    const busiest = [...stats.waitlist.hours].sort((a, b) => b.unserved - a.unserved)[0]!;
    expect([7, 8, 17, 18, 19]).toContain(busiest.hour);
  });
});
