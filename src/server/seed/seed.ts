import { count, eq, ne } from 'drizzle-orm';
import { zonedClock, zonedInstant, zonedToday } from '../../shared/time.js';
import type { StaffRole } from '../../shared/staff.js';
import type { Logger } from '../logger.js';
import { hashPassword } from '../modules/auth/index.js';
import { demoRows } from '../modules/bookings/index.js';
import { insertBike } from '../modules/bikes/index.js';
import { insertResidentCodes } from '../modules/residents/index.js';
import { insertAccounts, replaceIncarichi } from '../modules/users/index.js';
import { seedDemoSedi } from '../modules/sedi/index.js';
import type { Db } from '../db/client.js';
import { biciclette, residenti, users, type prenotazioni } from '../schema.js';
import { DEMO_SEDI, seedHistory } from './seed-history.js';
import { runTransaction } from '../db/transaction.js';
import { randomBytes } from 'node:crypto';

export const DEMO_BIKES: { numero: string; modello: string; nord?: boolean }[] = [
  { numero: '01', modello: 'City Bike Classic' },
  { numero: '02', modello: 'City Bike Classic' },
  { numero: '03', modello: 'City Bike Comfort' },
  { numero: '04', modello: 'City Bike Comfort' },
  { numero: '05', modello: 'Hybrid Sport 500' },
  { numero: '06', modello: 'Hybrid Sport 500' },
  { numero: '07', modello: 'Hybrid Trekking' },
  { numero: '08', modello: 'Hybrid Trekking' },
  { numero: '09', modello: 'Mountain Bike XC' },
  { numero: '10', modello: 'Mountain Bike XC' },
  { numero: '11', modello: 'Mountain Bike Trail' },
  { numero: '12', modello: 'Mountain Bike Trail' },
  { numero: '13', modello: 'City Bike Pieghevole' },
  { numero: '14', modello: 'Hybrid Elettrica' },
  // At the second sede (issue 47): a few bikes, their numbers unique in the install.
  { numero: '15', modello: 'City Bike Classic', nord: true },
  { numero: '16', modello: 'City Bike Comfort', nord: true },
  { numero: '17', modello: 'Hybrid Sport 500', nord: true },
  { numero: '18', modello: 'Mountain Bike XC', nord: true },
];

export const DEMO_RESIDENTS = [
  { sigla: 'ELIS001', nome: 'Marco', cognome: 'Rossi', corsoDiStudi: 'Ingegneria Informatica', annoCorso: 2 },
  { sigla: 'ELIS002', nome: 'Giulia', cognome: 'Bianchi', corsoDiStudi: 'Economia', annoCorso: 1 },
  { sigla: 'ELIS003', nome: 'Luca', cognome: 'Ferrari', corsoDiStudi: 'Medicina', annoCorso: 4 },
  { sigla: 'ELIS004', nome: 'Sara', cognome: 'Romano', corsoDiStudi: 'Giurisprudenza', annoCorso: 3 },
  { sigla: 'ELIS005', nome: 'Paolo', cognome: 'Esposito', corsoDiStudi: 'Architettura', annoCorso: 5 },
  { sigla: 'ELIS006', nome: 'Chiara', cognome: 'Ricci', corsoDiStudi: 'Fisica', annoCorso: 1 },
  { sigla: 'ELIS007', nome: 'Andrea', cognome: 'Colombo', corsoDiStudi: 'Ingegneria Gestionale', annoCorso: 2 },
  { sigla: 'ELIS008', nome: 'Elena', cognome: 'Marino', corsoDiStudi: 'Lettere', annoCorso: 3 },
];

export const DEMO_ACCOUNTS = [
  { email: 'admin@bicielis.demo', password: 'admin-demo-2026', nome: 'Anna', cognome: 'Admin', ruolo: 'admin' as const, sigla: null, descrizione: 'admin' },
  { email: 'residente@bicielis.demo', password: 'residente-demo-2026', nome: 'Marco', cognome: 'Rossi', ruolo: 'user' as const, sigla: 'ELIS001', descrizione: 'residente' },
  { email: 'esterno@bicielis.demo', password: 'esterno-demo-2026', nome: 'Laura', cognome: 'Verdi', ruolo: 'user' as const, sigla: null, descrizione: 'esterno' },
  // On a ride at start-up (decision 022): what a ride in progress looks like, on both dashboards.
  { email: 'ciclista@bicielis.demo', password: 'ciclista-demo-2026', nome: 'Elena', cognome: 'Marino', ruolo: 'user' as const, sigla: 'ELIS008', descrizione: 'residente in bici' },
  // The people who run the racks (issue 48): the porter of the second sede, the college's mechanic at both.
  { email: 'portineria@bicielis.demo', password: 'portineria-demo-2026', nome: 'Paolo', cognome: 'Ferri', ruolo: 'user' as const, sigla: null, descrizione: 'portineria (Residenza Nord)', incarichi: [{ sede: 'nord', ruolo: 'portineria' }] },
  { email: 'officina@bicielis.demo', password: 'officina-demo-2026', nome: 'Michele', cognome: 'Galli', ruolo: 'user' as const, sigla: null, descrizione: 'officina (tutte le sedi)', incarichi: [{ sede: 'centrale', ruolo: 'officina' }, { sede: 'nord', ruolo: 'officina' }] },
] satisfies DemoAccount[];

/** A demo account; `incarichi`, its roles at the demo's sedi (issue 48). */
interface DemoAccount {
  email: string;
  password: string;
  nome: string;
  cognome: string;
  ruolo: 'admin' | 'user';
  sigla: string | null;
  descrizione: string;
  incarichi?: { sede: 'centrale' | 'nord'; ruolo: StaffRole }[];
}

/**
 * Loads demo data into an empty database. Returns the accounts created (to print), or [].
 * "Empty" means no bikes, no resident codes and no users other than the `ADMIN_EMAIL`
 * admin (`configuredAdmin`), which start-up may have created already: behaviour.md §1 wants
 * both on a new database.
 */
export async function seedDemo(
  db: Db,
  log: Logger,
  configuredAdmin?: string,
  options: { now?: Date; timeZone?: string } = {},
): Promise<typeof DEMO_ACCOUNTS> {
  const now = options.now ?? new Date();
  const timeZone = options.timeZone ?? 'Europe/Rome';
  const others = configuredAdmin ? ne(users.email, configuredAdmin.trim().toLowerCase()) : undefined;
  const [row] = await db.select({ n: count() }).from(users).where(others);
  const [bikes] = await db.select({ n: count() }).from(biciclette);
  const [codes] = await db.select({ n: count() }).from(residenti);
  if ((row?.n ?? 0) > 0 || (bikes?.n ?? 0) > 0 || (codes?.n ?? 0) > 0) return [];
  // An ADMIN_EMAIL that is also a demo address keeps its configured password.
  const accounts = DEMO_ACCOUNTS.filter((a) => a.email !== configuredAdmin?.trim().toLowerCase());
  // The demo's past people cannot log in: one hash of a random secret serves them all.
  const [hashes, historyHash] = await Promise.all([
    Promise.all(accounts.map((a) => hashPassword(a.password))),
    hashPassword(randomBytes(24).toString('base64url')),
  ]);
  await runTransaction(db, async (tx) => {
    const [centrale, nord] = (await seedDemoSedi(tx, DEMO_SEDI)) as [number, number];
    for (const bike of DEMO_BIKES) await insertBike(tx, { numero: bike.numero, modello: bike.modello, sedeId: bike.nord ? nord : centrale }, now);
    await insertResidentCodes(tx, DEMO_RESIDENTS);
    const created = await insertAccounts(
      tx,
      accounts.map((a, i) => ({
        email: a.email,
        passwordHash: hashes[i]!,
        nome: a.nome,
        cognome: a.cognome,
        ruolo: a.ruolo,
        isResidente: a.sigla !== null,
        siglaResidente: a.sigla,
        ...(a.incarichi?.every((i) => i.sede === 'nord') ? { sedeId: nord } : {}),
      })),
    );
    const sedeOf = { centrale, nord };
    for (const account of accounts) {
      const user = account.incarichi && created.find((c) => c.email === account.email);
      if (user) await replaceIncarichi(tx, user.id, account.incarichi!.map((i) => ({ sedeId: sedeOf[i.sede], ruolo: i.ruolo })), now);
    }
    // A ride in progress (decision 022): the demo cyclist took bike 01 half an hour ago and
    // brings it back in an hour and a half. (The demo resident stays free to book.)
    const resident = created.find((u) => u.email === 'ciclista@bicielis.demo');
    const [bike] = await tx.select({ id: biciclette.id }).from(biciclette).where(eq(biciclette.numero, '01'));
    if (resident && bike) await demoRows.insertBookingRows(tx, [demoRide(resident.id, bike.id, now, timeZone)]);
    // About 60 days of past rides, a closure next month, a maintenance next week (issue 20).
    const fleet = await tx
      .select({ id: biciclette.id, numero: biciclette.numero, sedeId: biciclette.sedeId })
      .from(biciclette)
      .orderBy(biciclette.numero);
    const demoUsers = created.flatMap((c) => {
      const account = accounts.find((a) => a.email === c.email);
      // The staff keep no past rides: the history is the riders'.
      return account && account.ruolo !== 'admin' && !('incarichi' in account) ? [{ id: c.id, residente: account.sigla !== null }] : [];
    });
    const { nordRider } = await seedHistory(tx, { now, timeZone, passwordHash: historyHash, demoUsers, bikes: fleet, sedi: { centrale, nord } });
    // One person on a ride at the second sede too, on its first bike.
    const nordBike = fleet.find((b) => b.sedeId === nord);
    if (nordRider !== null && nordBike) await demoRows.insertBookingRows(tx, [{ ...demoRide(nordRider, nordBike.id, now, timeZone), destinazione: 'Stazione Termini' }]);
  });
  log.info({ bikes: DEMO_BIKES.length, residents: DEMO_RESIDENTS.length, sedi: DEMO_SEDI.length }, 'demo data loaded');
  return accounts;
}

/**
 * The demo ride around `now` (the real clock at start-up): picked up 30 minutes ago, ending
 * in 90, on whole minutes, kept within today's wall-clock day in `timeZone` (a booking is on
 * one day): near midnight the window is cut at 00:00 / 23:59.
 */
export function demoRide(userId: number, biciId: number, now: Date, timeZone: string): typeof prenotazioni.$inferInsert {
  const minute = 60_000;
  const today = zonedToday(now, timeZone);
  const clock = zonedClock(now, timeZone);
  const nowMinute = zonedInstant(today, clock, timeZone) ?? new Date(Math.floor(now.getTime() / minute) * minute);
  const dayStart = zonedInstant(today, '00:00', timeZone) ?? zonedInstant(today, '01:00', timeZone)!;
  const dayEnd = zonedInstant(today, '23:59', timeZone)!;
  const inizio = new Date(Math.max(nowMinute.getTime() - 30 * minute, dayStart.getTime()));
  const fine = new Date(Math.max(Math.min(nowMinute.getTime() + 90 * minute, dayEnd.getTime()), inizio.getTime() + minute));
  return {
    userId,
    biciId,
    dataPrenotazione: today,
    orarioInizio: zonedClock(inizio, timeZone),
    orarioFine: zonedClock(fine, timeZone),
    inizio,
    fine,
    destinazione: 'Villa Borghese',
    stato: 'attiva',
    ritirataAt: inizio,
    createdAt: new Date(inizio.getTime() - 60 * minute),
    updatedAt: inizio,
  };
}

/** Makes sure the admin named by ADMIN_EMAIL exists. Never changes an existing account. */
export async function ensureAdmin(
  db: Db,
  admin: { email: string; password: string },
  log: Logger,
): Promise<boolean> {
  const email = admin.email.trim().toLowerCase();
  const existing = await db.select({ id: users.id }).from(users).where(eq(users.email, email));
  if (existing.length > 0) return false;
  await insertAccounts(db, [{ email, passwordHash: await hashPassword(admin.password), nome: 'Amministratore', cognome: 'BiciElis', ruolo: 'admin' }], true);
  log.info('admin account created from ADMIN_EMAIL');
  return true;
}
