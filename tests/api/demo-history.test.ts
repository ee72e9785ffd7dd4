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
             (select count(*) from interventi)::int as damages,
             (select count(distinct p.user_id) from prenotazioni p join users u on u.id = p.user_id where not u.is_residente)::int as externals`);
    console.log(`      demo seed: ${seedMs.toFixed(0)} ms; ${JSON.stringify(r)}`);
    expect(r.days).toBeGreaterThanOrEqual(50);
    expect(r.completed).toBeGreaterThan(600);
    expect(r.no_shows).toBeGreaterThan(0);
    expect(r.by_user).toBeGreaterThan(0);
    expect(r.future).toBe(2); // only the demo rides in progress, one at each sede (issue 47)
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

describe('the demo data at two sedi (issue 47)', () => {
  it('has Residenza Centrale with most bikes and the demo accounts, Residenza Nord with a few, a past and a ride in progress at each', async () => {
    const { rows } = await database.db.execute<{ nome: string; bikes: number; past: number; riding: number; demo: number; people: number }>(sql`
      select s.nome,
             (select count(*) from biciclette b where b.sede_id = s.id)::int as bikes,
             (select count(*) from prenotazioni p where p.sede_id = s.id and p.fine < ${NOW.toISOString()}::timestamptz)::int as past,
             (select count(*) from prenotazioni p where p.sede_id = s.id and p.stato = 'attiva' and p.ritirata_at is not null)::int as riding,
             (select count(*) from users u where u.sede_id = s.id and u.email like '%@bicielis.demo')::int as demo,
             (select count(*) from users u where u.sede_id = s.id)::int as people
        from sedi s order by s.id`);
    expect(rows.map((r) => r.nome)).toEqual(['Residenza Centrale', 'Residenza Nord']);
    const [centrale, nord] = rows as [(typeof rows)[number], (typeof rows)[number]];
    expect(centrale.bikes).toBe(14);
    expect(nord.bikes).toBe(4);
    expect(nord.past).toBeGreaterThan(50);
    expect(centrale.past).toBeGreaterThan(nord.past);
    expect([centrale.riding, nord.riding]).toEqual([1, 1]);
    // The admin, the three riders and the mechanic at the first sede; the porter of Nord at Nord (issue 48).
    expect(centrale.demo).toBe(5);
    expect(nord.demo).toBe(1);
    expect(nord.people).toBeGreaterThan(3);
    // Everyone rode and waited at their own sede; the resident codes of Nord's people say so.
    const r = await one<{ away: number; waits_away: number; codes: number }>(sql`
      select (select count(*) from prenotazioni p join users u on u.id = p.user_id where p.sede_id <> u.sede_id)::int as away,
             (select count(*) from attese a join users u on u.id = a.user_id where a.sede_id <> u.sede_id)::int as waits_away,
             (select count(*) from residenti r join users u on u.sigla_residente = r.sigla where r.sede_id = u.sede_id and r.sede_id <> (select min(id) from sedi))::int as codes`);
    expect(r.away).toBe(0);
    expect(r.waits_away).toBe(0);
    expect(r.codes).toBeGreaterThan(2);
  });
});
