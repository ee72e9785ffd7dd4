import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/server/clock.js';
import { fleetChangedSince, fleetNow, readFleetNow } from '../../src/server/modules/bookings/fleet-now.js';
import { currentRules, lifecycleMinutes } from '../../src/server/modules/rules/index.js';
import type { BikeNow } from '../../src/shared/schemas/fleet.js';
import { TEST_NOW, testConfig } from '../helpers/app.js';
import { createTestDatabase } from '../helpers/db.js';
import { createUser } from '../helpers/factories.js';

/**
 * The fleet's state now (issue 34, decision 044) at chosen instants, with a clock that stands
 * still: TEST_NOW is 2026-11-21 09:00 UTC, 10:00 in Rome.
 */
let database: Awaited<ReturnType<typeof createTestDatabase>>;
const clock = new ManualClock(TEST_NOW);
const config = testConfig();
const deps = () => ({ db: database.db, clock, config });
const ids = new Map<string, number>();
const at = (minutes: number) => new Date(TEST_NOW.getTime() + minutes * 60_000);
const isoAt = (minutes: number) => at(minutes).toISOString();

async function bike(numero: string, stato = 'disponibile'): Promise<number> {
  const { rows } = await database.db.execute<{ id: number }>(
    sql`insert into biciclette (numero, modello, stato) values (${numero}, 'City Bike', ${stato}) returning id`,
  );
  ids.set(numero, rows[0]!.id);
  return rows[0]!.id;
}

/** A booking of its own user on bike `numero`, from `start` to `end` minutes from TEST_NOW. */
async function booking(
  numero: string,
  start: number,
  end: number,
  opts: { pickedUp?: number; createdAgo?: number; payment?: 'pending' | 'completed' } = {},
): Promise<number> {
  const user = await createUser(database.db, { nome: 'Persona', cognome: 'Riservata' });
  const { rows } = await database.db.execute<{ id: number }>(sql`
    insert into prenotazioni (user_id, bici_id, data_prenotazione, orario_inizio, orario_fine, inizio, fine, stato, ritirata_at, created_at)
    values (${user.id}, ${ids.get(numero)!}, '2026-11-21', '10:00', '11:00', ${isoAt(start)}::timestamptz, ${isoAt(end)}::timestamptz, 'attiva',
            ${opts.pickedUp === undefined ? null : isoAt(opts.pickedUp)}::timestamptz,
            ${isoAt(-(opts.createdAgo ?? 24 * 60))}::timestamptz)
    returning id`);
  const id = rows[0]!.id;
  if (opts.payment) {
    await database.db.execute(sql`
      insert into pagamenti (prenotazione_id, provider, provider_payment_id, amount, status, completed_at)
      values (${id}, 'simulated', ${`sim_fleet_${id}`}, 250, ${opts.payment}, ${opts.payment === 'completed' ? isoAt(-60) : null}::timestamptz)`);
  }
  return id;
}

async function boardAt(minutes: number): Promise<Map<string, BikeNow>> {
  const list = await fleetNow(deps(), at(minutes));
  return new Map(list.map((b) => [b.numero, b]));
}

let noShow = 30;

beforeAll(async () => {
  database = await createTestDatabase();
  noShow = lifecycleMinutes(await currentRules({ db: database.db })).noShow;
  await bike('01');
  await bike('02');
  await bike('03');
  await bike('04');
  await bike('05');
  await bike('06');
  await bike('07');
  await bike('08', 'manutenzione');
  await bike('09', 'fuori_servizio');
  await bike('10');
  await bike('11');
  await bike('12');
  // 02: free, booked at 14:00–15:00 in Rome (13:00Z) and 16:00–17:00.
  await booking('02', 240, 300);
  // 03: ridden until 10:30 in Rome, booked again 10:30–11:00.
  await booking('03', -30, 30, { pickedUp: -35 });
  await booking('03', 30, 60, { payment: 'completed' });
  // 04: a ride that ended at 09:30 in Rome and is not back.
  await booking('04', -90, -30, { pickedUp: -95 });
  // 05: booked from 10:05, its pick-up window open since 09:55.
  await booking('05', 5, 65);
  // 06: a no-show past its instant (the start 2 hours ago): reads free.
  await booking('06', -120, 60);
  // 07: an unpaid hold run out (created two days ago, still pending): reads free.
  await booking('07', 120, 180, { payment: 'pending', createdAgo: 2 * 24 * 60 });
  // 10: planned maintenance until 11:00 in Rome, then a booking until 12:00.
  await database.db.execute(sql`
    insert into manutenzioni (bici_id, inizio, fine, motivo)
    values (${ids.get('10')!}, ${isoAt(-60)}::timestamptz, ${isoAt(60)}::timestamptz, 'Freni')`);
  await booking('10', 60, 120, { payment: 'completed' });
  // 11: booked tomorrow only.
  await booking('11', 24 * 60, 25 * 60);
  // 12: a paid booking that ends after midnight in Rome (22:00–01:00 tomorrow).
  await booking('12', 12 * 60, 15 * 60, { payment: 'completed' });
}, 60_000);

afterAll(async () => {
  await database?.drop();
});

describe('fleetNow (issue 34)', () => {
  it('says each bike’s state now, with its times', async () => {
    const board = await boardAt(0);
    expect(board.get('01')).toEqual({
      biciId: ids.get('01'),
      numero: '01',
      stato: 'libera',
      liberaFino: null,
      inUsoFino: null,
      prenotataDalle: null,
      prossimePrenotazioni: [],
      prossimaLiberaOggi: isoAt(0),
    });
    expect(board.get('02')).toMatchObject({
      stato: 'libera',
      liberaFino: isoAt(240),
      prossimePrenotazioni: [{ inizio: isoAt(240), fine: isoAt(300) }],
      prossimaLiberaOggi: isoAt(0),
    });
    expect(board.get('03')).toMatchObject({
      stato: 'in_uso',
      inUsoFino: isoAt(30),
      prossimePrenotazioni: [{ inizio: isoAt(30), fine: isoAt(60) }],
      prossimaLiberaOggi: isoAt(60),
    });
    expect(board.get('04')).toMatchObject({ stato: 'in_ritardo', inUsoFino: isoAt(-30), prossimaLiberaOggi: null });
    expect(board.get('05')).toMatchObject({
      stato: 'prenotata',
      prenotataDalle: isoAt(5),
      prossimePrenotazioni: [{ inizio: isoAt(5), fine: isoAt(65) }],
      prossimaLiberaOggi: isoAt(65),
    });
    expect(board.get('06')).toMatchObject({ stato: 'libera', prossimePrenotazioni: [], liberaFino: null });
    expect(board.get('07')).toMatchObject({ stato: 'libera', prossimePrenotazioni: [], liberaFino: null });
    expect(board.get('08')).toMatchObject({ stato: 'manutenzione', prossimaLiberaOggi: null });
    expect(board.get('09')).toMatchObject({ stato: 'fuori_servizio', prossimaLiberaOggi: null });
    // Free when the maintenance ends, but the booking that follows it runs until 12:00 Rome.
    expect(board.get('10')).toMatchObject({ stato: 'manutenzione', prossimaLiberaOggi: isoAt(120) });
    expect(board.get('11')).toMatchObject({ stato: 'libera', liberaFino: null, prossimePrenotazioni: [] });
    // Its booking runs past midnight: not free again today.
    expect(board.get('12')).toMatchObject({ stato: 'libera', liberaFino: isoAt(12 * 60), prossimePrenotazioni: [{ inizio: isoAt(12 * 60), fine: isoAt(15 * 60) }] });
  });

  it('moves with the clock: a window opening, a ride running late, a no-show released', async () => {
    // 09:50 in Rome: bike 05's pick-up window (from 09:55) is not open yet.
    expect((await boardAt(-10)).get('05')).toMatchObject({ stato: 'libera', liberaFino: isoAt(5), prossimaLiberaOggi: isoAt(-10) });
    const later = await boardAt(40);
    // 10:40: bike 03's ride ended at 10:30 and is not back.
    expect(later.get('03')).toMatchObject({ stato: 'in_ritardo', inUsoFino: isoAt(30) });
    // Bike 05 was never picked up: a no-show once its instant passed.
    expect(later.get('05')).toMatchObject(noShow < 40 ? { stato: 'libera', prossimePrenotazioni: [] } : { stato: 'prenotata' });
    // 11:00 in Rome: bike 10's maintenance is over, its booking's window open.
    expect((await boardAt(60)).get('10')).toMatchObject({ stato: 'prenotata', prenotataDalle: isoAt(60), prossimaLiberaOggi: isoAt(120) });
  });

  it('carries no name, email, user or booking id', async () => {
    const text = JSON.stringify(await fleetNow(deps(), at(0)));
    expect(text).not.toContain('Riservata');
    expect(text).not.toContain('@');
    expect(text).not.toMatch(/user|prenotazioneId|email|codice/i);
  });

  it('tells when a write changed what it read, and when the clock alone will', async () => {
    const reading = await readFleetNow(deps(), at(0));
    // The next turn by the clock: bike 05's start at 10:05 in Rome.
    expect(reading.validUntil).toBe(at(5).getTime());
    expect(await fleetChangedSince(database.db, reading)).toBe(false);
    await booking('01', 300, 360);
    expect(await fleetChangedSince(database.db, reading)).toBe(true);
    const again = await readFleetNow(deps(), at(0));
    expect(await fleetChangedSince(database.db, again)).toBe(false);
    expect(again.bici.find((b) => b.numero === '01')).toMatchObject({ stato: 'libera', liberaFino: isoAt(300) });
  });
});
