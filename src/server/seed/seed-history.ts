import { sql } from 'drizzle-orm';
import { DAMAGE_CATEGORIES } from '../../shared/damage.js';
import { addDays, zonedInstant, zonedToday } from '../../shared/time.js';
import { seededRandom } from '../lib/seeded-random.js';
import { demoRows } from '../modules/bookings/index.js';
import { insertPastPayments } from '../modules/payments/index.js';
import { insertResidentCodes } from '../modules/residents/index.js';
import { insertAccounts } from '../modules/users/index.js';
import type { Tx } from '../db/transaction.js';

/**
 * The demo's past (issue 20, "Demo data"): about 60 days of a college's rides, so that the
 * statistics and the nightly PDF look real on the first start, plus a closure next month and
 * a planned maintenance next week. Deterministic for a given `now` (a seeded generator), and
 * written in a few multi-row statements; the bookings and payments through their owners' functions.
 */

const FIRST_NAMES = ['Alessandro', 'Beatrice', 'Davide', 'Francesca', 'Giorgio', 'Ilaria', 'Lorenzo', 'Martina', 'Nicola', 'Federica',
  'Riccardo', 'Silvia', 'Tommaso', 'Valentina', 'Matteo', 'Aurora', 'Gabriele', 'Noemi', 'Simone', 'Camilla', 'Stefano', 'Alice',
  'Emanuele', 'Greta', 'Pietro'];
const LAST_NAMES = ['Conti', 'De Luca', 'Mancini', 'Costa', 'Giordano', 'Rizzo', 'Lombardi', 'Moretti', 'Barbieri', 'Fontana',
  'Santoro', 'Mariani', 'Rinaldi', 'Caruso', 'Ferrara', 'Galli', 'Martini', 'Leone', 'Longo', 'Gentile', 'Martinelli', 'Vitale',
  'Serra', 'Coppola', 'De Santis'];
const COURSES = ['Ingegneria Meccanica', 'Economia', 'Medicina', 'Scienze Politiche', 'Matematica', 'Chimica', 'Filosofia'];
const DESTINATIONS = ['Università La Sapienza', 'Roma Tre', 'Villa Borghese', 'Trastevere', 'Stazione Termini', 'Colosseo', 'Parco degli Acquedotti',
  'Biblioteca', 'Ostiense', 'EUR', null];
/** The demo's sedi (issue 47): the first (renamed) has most bikes and the demo accounts. */
export const DEMO_SEDI = ['Residenza Centrale', 'Residenza Nord'] as const;
/** What the demo's people wrote (destinations, damage reports, the sedi's names): shown as written in either language (issue 36). */
export const DEMO_WRITTEN = (): string[] => [...DESTINATIONS.filter((d): d is string => d !== null), ...DAMAGES, ...COURSES, DEMO_CLOSURE, ...DEMO_SEDI];
const DEMO_CLOSURE = 'Chiusura per lavori nel cortile';
const DAMAGES = ['Il freno anteriore fischia', 'Gomma posteriore sgonfia', 'La catena salta sulle marce alte', 'Il fanale anteriore non si accende',
  'Graffio profondo sul telaio', 'Il campanello è rotto'];

/** Extra demo people: residents (with codes ELIS009…) and externals. They cannot log in. */
export const HISTORY_RESIDENTS = 17;
export const HISTORY_EXTERNALS = 8;
export const HISTORY_DAYS = 60;

type PastBooking = Parameters<typeof demoRows.insertPastBookings>[1][number];
type PastBookingRow = Awaited<ReturnType<typeof demoRows.insertPastBookings>>[number];

const hhmm = (q: number) => `${String(Math.floor(q / 4)).padStart(2, '0')}:${String((q % 4) * 15).padStart(2, '0')}`;

interface Rider {
  id: number;
  residente: boolean;
  /** Their home sede: they ride its bikes (issue 47). */
  sedeId: number;
  /** A demo account (it can log in): never a no-show, never waiting. */
  demo: boolean;
}

/** The seeded generator and its pick, shared by every step in one order (the demo is deterministic). */
interface Dice {
  random: () => number;
  pick: <T>(xs: readonly T[]) => T;
}

interface HistoryOptions {
  now: Date;
  timeZone: string;
  passwordHash: string;
  demoUsers: { id: number; residente: boolean }[];
  bikes: { id: number; numero: string; sedeId: number }[];
  /** The demo's two sedi (issue 47): the demo accounts and most people at the first, one in four at the second. */
  sedi: { centrale: number; nord: number };
}

/**
 * Seeds the past. `demoUsers`: the ids of the demo accounts that may have rides (never a
 * no-show: they must not start suspended); `bikes`: every bike id but the one in use now;
 * `passwordHash`: one hash for every extra person (residents and externals).
 */
export async function seedHistory(tx: Tx, opts: HistoryOptions): Promise<{ rides: number; nordRider: number | null }> {
  const random = seededRandom(20_261_124);
  const dice: Dice = { random, pick: (xs) => xs[Math.floor(random() * xs.length)]! };
  const today = zonedToday(opts.now, opts.timeZone);
  const created = await seedPeople(tx, opts);
  const riders: Rider[] = [
    ...created.map((u) => ({ ...u, demo: false })),
    ...opts.demoUsers.map((u) => ({ ...u, sedeId: opts.sedi.centrale, demo: true })),
  ];
  const inserted = await demoRows.insertPastBookings(tx, planRides(dice, today, riders, opts), opts.timeZone);
  // Payments: every external's booking was paid; the ones the user cancelled were refunded.
  const externals = new Set(riders.filter((r) => !r.residente).map((r) => r.id));
  await insertPastPayments(
    tx,
    inserted.filter((p) => externals.has(p.user_id)).map((p) => ({ id: p.id, refunded: p.motivo === 'utente', paid: p.created_at })),
  );
  await seedDamages(tx, dice, inserted);
  await seedWaits(tx, dice, today, riders, opts.timeZone);
  await seedClosureAndMaintenance(tx, today, opts);
  // The second sede's ride in progress (seed.ts): its first resident.
  const nordRider = created.find((u) => u.sedeId === opts.sedi.nord && u.residente)?.id ?? null;
  return { rides: inserted.length, nordRider };
}

/** One person in four lives at the second sede (issue 47). */
const sedeOf = (i: number, sedi: HistoryOptions['sedi']) => (i % 4 === 3 ? sedi.nord : sedi.centrale);

/** The extra people: resident codes and their accounts, and the externals; their ids. */
async function seedPeople(tx: Tx, opts: HistoryOptions): Promise<{ id: number; residente: boolean; sedeId: number }[]> {
  const { now } = opts;
  const codes = Array.from({ length: HISTORY_RESIDENTS }, (_, i) => ({
    sigla: `ELIS${String(9 + i).padStart(3, '0')}`,
    nome: FIRST_NAMES[i]!,
    cognome: LAST_NAMES[i]!,
    corsoDiStudi: COURSES[i % COURSES.length]!,
    annoCorso: 1 + (i % 5),
    sedeId: sedeOf(i, opts.sedi),
  }));
  await insertResidentCodes(tx, codes);
  const people = [
    ...codes.map((c) => ({ nome: c.nome, cognome: c.cognome, sigla: c.sigla as string | null })),
    ...Array.from({ length: HISTORY_EXTERNALS }, (_, i) => ({
      nome: FIRST_NAMES[HISTORY_RESIDENTS + i]!,
      cognome: LAST_NAMES[HISTORY_RESIDENTS + i]!,
      sigla: null as string | null,
    })),
  ].map((p, i) => ({ ...p, sedeId: sedeOf(i, opts.sedi), email: `${p.nome}.${p.cognome}`.toLowerCase().replace(/[^a-z.]/g, '') + '@studenti.bicielis.demo' }));
  const since = new Date(now.getTime() - (HISTORY_DAYS + 5) * 86_400_000);
  const rows = people.map(({ sigla, ...p }) => ({ ...p, passwordHash: opts.passwordHash, isResidente: sigla !== null, siglaResidente: sigla, createdAt: since, updatedAt: since }));
  const sedeByEmail = new Map(rows.map((r) => [r.email, r.sedeId]));
  return (await insertAccounts(tx, rows)).map(({ id, email, residente }) => ({ id, residente, sedeId: sedeByEmail.get(email)! }));
}

/**
 * The rides: more on weekdays at commuting hours, weekend afternoons; 1–3 h each; no two of
 * one bike overlapping, one per person per day.
 */
function planRides(dice: Dice, today: string, riders: Rider[], opts: Pick<HistoryOptions, 'timeZone' | 'bikes'>): PastBooking[] {
  const { random, pick } = dice;
  const { timeZone } = opts;
  const rides: PastBooking[] = [];
  const iso = (t: number | null) => (t === null ? null : new Date(t).toISOString());
  for (let back = HISTORY_DAYS; back >= 1; back--) {
    const d = addDays(today, -back);
    const weekday = new Date(`${d}T12:00:00Z`).getUTCDay();
    const weekend = weekday === 0 || weekday === 6;
    const count = weekend ? 8 + Math.floor(random() * 8) : 15 + Math.floor(random() * 12);
    const busy = new Map<number, [number, number][]>();
    const usedToday = new Set<number>();
    for (let n = 0; n < count; n++) {
      const hourPool = weekend ? [10, 11, 14, 15, 16, 17, 18] : [7, 7, 8, 8, 9, 12, 13, 17, 17, 18, 18, 19, 20];
      const start = pick(hourPool) * 4 + Math.floor(random() * 4);
      const end = Math.min(start + 4 + Math.floor(random() * 9), 95);
      const rider = pick(riders);
      if (usedToday.has(rider.id)) continue;
      const bikes = opts.bikes.filter((b) => b.sedeId === rider.sedeId);
      const bike = bikes.find((b) => !(busy.get(b.id) ?? []).some(([s, e]) => s < end && start < e) && random() < 0.5) ??
        bikes.find((b) => !(busy.get(b.id) ?? []).some(([s, e]) => s < end && start < e));
      if (!bike) continue;
      usedToday.add(rider.id);
      busy.set(bike.id, [...(busy.get(bike.id) ?? []), [start, end]]);
      const roll = random();
      const noShow = !rider.demo && roll < 0.06;
      const cancelled = !noShow && roll < 0.12;
      const inizio = zonedInstant(d, hhmm(start), timeZone)!.getTime();
      const fine = zonedInstant(d, hhmm(end), timeZone)!.getTime();
      const pickup = inizio + Math.floor(random() * 10) * 60_000;
      rides.push({
        u: rider.id,
        b: bike.id,
        d,
        s: hhmm(start),
        e: hhmm(end),
        dest: pick(DESTINATIONS),
        stato: noShow || cancelled ? 'cancellata' : 'completata',
        motivo: noShow ? 'mancato_ritiro' : cancelled ? 'utente' : null,
        pickup: noShow || cancelled ? null : iso(pickup),
        back: noShow || cancelled ? null : iso(Math.max(pickup + 60_000, fine - (15 - Math.floor(random() * 25)) * 60_000)),
        created: iso(inizio - (1 + Math.floor(random() * 48)) * 3_600_000),
      });
    }
  }
  return rides;
}

/** A damage report for about one ride in 40, most of them dealt with. */
async function seedDamages(tx: Tx, { random }: Dice, inserted: PastBookingRow[]): Promise<void> {
  const damages = inserted
    .filter((p) => p.stato === 'completata' && random() < 0.025)
    .map((p, i) => ({
      p: p.id,
      b: p.bici_id,
      u: p.user_id,
      c: DAMAGE_CATEGORIES[i % DAMAGE_CATEGORIES.length],
      t: DAMAGES[i % DAMAGES.length],
      at: p.fine,
      solved: i % 3 !== 0,
      // The first still open is being worked on (`in_lavorazione`), the others wait (`aperto`).
      stato: i % 3 !== 0 ? 'riparata' : i === 0 ? 'in_lavorazione' : 'aperto',
    }));
  // Repair tickets (issue 48): most repaired a day later, the rest still open at their bike's sede (its trigger).
  await tx.execute(sql`
    insert into interventi (prenotazione_id, bici_id, segnalato_da, origine, categoria, descrizione, stato, created_at, updated_at, chiuso_at)
    select d.p, d.b, d.u, 'riconsegna', d.c, d.t, d.stato, d.at::timestamptz,
           d.at::timestamptz + case when d.solved then interval '1 day' else interval '0' end,
           case when d.solved then d.at::timestamptz + interval '1 day' end
      from json_to_recordset(${JSON.stringify(damages)}::json) as d(p int, b int, u int, c text, t text, at text, solved boolean, stato text)`);
}

/**
 * The waitlist (issue 21): on weekdays at the busy hours some people waited in vain (the
 * window started with no bike freed) and a few were served by an offer.
 */
async function seedWaits(tx: Tx, { random, pick }: Dice, today: string, riders: Rider[], timeZone: string): Promise<void> {
  const waits: { u: number; sede: number; d: string; s: string; e: string; stato: 'scaduta' | 'servita' }[] = [];
  const waiters = riders.filter((r) => !r.demo);
  for (let back = HISTORY_DAYS; back >= 1; back--) {
    const d = addDays(today, -back);
    const weekday = new Date(`${d}T12:00:00Z`).getUTCDay();
    if (weekday === 0 || weekday === 6) continue;
    const count = Math.floor(random() * 4);
    for (let n = 0; n < count; n++) {
      const start = pick([7, 8, 17, 18, 18, 19]) * 4;
      const waiter = pick(waiters);
      waits.push({ u: waiter.id, sede: waiter.sedeId, d, s: hhmm(start), e: hhmm(start + 4 + Math.floor(random() * 5)), stato: random() < 0.25 ? 'servita' : 'scaduta' });
    }
  }
  await tx.execute(sql`
    insert into attese (user_id, sede_id, data_prenotazione, orario_inizio, orario_fine, inizio, fine, stato, created_at, ended_at)
    select w.u, w.sede, w.d::date, w.s, w.e, (w.d::date + w.s::time) at time zone ${timeZone}, (w.d::date + w.e::time) at time zone ${timeZone},
           w.stato, (w.d::date + w.s::time) at time zone ${timeZone} - interval '3 hours', (w.d::date + w.s::time) at time zone ${timeZone}
      from json_to_recordset(${JSON.stringify(waits)}::json) as w(u int, sede int, d text, s text, e text, stato text)`);
}

/** The demo's closure next month (from the 10th, three days) and its planned maintenance a week from `today` (tests/helpers/days.test.ts). */
export function demoClosureAndMaintenance(today: string, timeZone: string) {
  const [y, m] = today.split('-').map(Number) as [number, number];
  const dal = `${m === 12 ? y + 1 : y}-${String(m === 12 ? 1 : m + 1).padStart(2, '0')}-10`;
  const at = (time: string) => zonedInstant(addDays(today, 7), time, timeZone)!;
  return { closure: { dal, al: addDays(dal, 2), motivo: DEMO_CLOSURE }, maintenance: { inizio: at('09:00'), fine: at('18:00') } };
}

async function seedClosureAndMaintenance(tx: Tx, today: string, opts: Pick<HistoryOptions, 'timeZone' | 'bikes'>): Promise<void> {
  const { closure, maintenance } = demoClosureAndMaintenance(today, opts.timeZone);
  await tx.execute(sql`insert into chiusure (dal, al, motivo) values (${closure.dal}::date, ${closure.al}::date, ${closure.motivo})`);
  const bike14 = opts.bikes.find((b) => b.numero === '14') ?? opts.bikes.at(-1);
  if (!bike14) return;
  await tx.execute(sql`insert into manutenzioni (bici_id, inizio, fine, motivo)
    values (${bike14.id}, ${maintenance.inizio.toISOString()}::timestamptz, ${maintenance.fine.toISOString()}::timestamptz, 'Revisione programmata')`);
}
