import { sql } from 'drizzle-orm';
import { DAMAGE_CATEGORIES } from '../../shared/damage.js';
import { addDays, zonedInstant, zonedToday } from '../../shared/time.js';
import { seededRandom } from '../lib/seeded-random.js';
import type { Tx } from './transaction.js';

/**
 * The demo's past (issue 20, "Demo data"): about 60 days of a college's rides, so that the
 * statistics and the nightly PDF look real on the first start, plus a closure next month and
 * a planned maintenance next week. Deterministic for a given `now` (a seeded generator), and
 * written in a few multi-row statements.
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
const DAMAGES = ['Il freno anteriore fischia', 'Gomma posteriore sgonfia', 'La catena salta sulle marce alte', 'Il fanale anteriore non si accende',
  'Graffio profondo sul telaio', 'Il campanello è rotto'];

/** Extra demo people: residents (with codes ELIS009…) and externals. They cannot log in. */
export const HISTORY_RESIDENTS = 17;
export const HISTORY_EXTERNALS = 8;
export const HISTORY_DAYS = 60;

interface Ride {
  u: number;
  b: number;
  d: string;
  s: string;
  e: string;
  dest: string | null;
  stato: 'completata' | 'cancellata';
  motivo: 'mancato_ritiro' | 'utente' | null;
  pickup: number | null;
  back: number | null;
  created: number;
}

const hhmm = (q: number) => `${String(Math.floor(q / 4)).padStart(2, '0')}:${String((q % 4) * 15).padStart(2, '0')}`;

/**
 * Seeds the past. `people`: the ids of the demo accounts that may have rides (never a
 * no-show: they must not start suspended), residents and externals; `bikes`: every bike id
 * but the one in use now; `passwordHash`: one hash for every extra person.
 */
export async function seedHistory(
  tx: Tx,
  opts: {
    now: Date;
    timeZone: string;
    passwordHash: string;
    demoUsers: { id: number; residente: boolean }[];
    bikes: { id: number; numero: string }[];
  },
): Promise<{ rides: number }> {
  const { now, timeZone } = opts;
  const random = seededRandom(20_261_124);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  const today = zonedToday(now, timeZone);

  // The people.
  const codes = Array.from({ length: HISTORY_RESIDENTS }, (_, i) => ({
    sigla: `ELIS${String(9 + i).padStart(3, '0')}`,
    nome: FIRST_NAMES[i]!,
    cognome: LAST_NAMES[i]!,
    corso: COURSES[i % COURSES.length]!,
    anno: 1 + (i % 5),
  }));
  await tx.execute(sql`
    insert into residenti (sigla, nome, cognome, corso_di_studi, anno_corso)
    select r.sigla, r.nome, r.cognome, r.corso, r.anno from json_to_recordset(${JSON.stringify(codes)}::json)
      as r(sigla text, nome text, cognome text, corso text, anno int)
    on conflict (sigla) do nothing`);
  const people = [
    ...codes.map((c) => ({ nome: c.nome, cognome: c.cognome, sigla: c.sigla as string | null })),
    ...Array.from({ length: HISTORY_EXTERNALS }, (_, i) => ({
      nome: FIRST_NAMES[HISTORY_RESIDENTS + i]!,
      cognome: LAST_NAMES[HISTORY_RESIDENTS + i]!,
      sigla: null as string | null,
    })),
  ].map((p) => ({ ...p, email: `${p.nome}.${p.cognome}`.toLowerCase().replace(/[^a-z.]/g, '') + '@studenti.bicielis.demo' }));
  const { rows: created } = await tx.execute<{ id: number; residente: boolean }>(sql`
    insert into users (nome, cognome, email, password_hash, is_residente, sigla_residente, created_at, updated_at)
    select p.nome, p.cognome, p.email, ${opts.passwordHash}, p.sigla is not null, p.sigla,
           ${now.toISOString()}::timestamptz - make_interval(days => ${HISTORY_DAYS + 5}),
           ${now.toISOString()}::timestamptz - make_interval(days => ${HISTORY_DAYS + 5})
      from json_to_recordset(${JSON.stringify(people)}::json) as p(nome text, cognome text, email text, sigla text)
    returning id, is_residente as residente`);
  const riders = [...created.map((u) => ({ ...u, demo: false })), ...opts.demoUsers.map((u) => ({ ...u, demo: true }))];

  // The rides: more on weekdays at commuting hours, weekend afternoons; 1–3 h each; no two
  // of one bike overlapping, one per person per day.
  const rides: Ride[] = [];
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
      const bike = opts.bikes.find((b) => !(busy.get(b.id) ?? []).some(([s, e]) => s < end && start < e) && random() < 0.5) ??
        opts.bikes.find((b) => !(busy.get(b.id) ?? []).some(([s, e]) => s < end && start < e));
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
        pickup: noShow || cancelled ? null : pickup,
        back: noShow || cancelled ? null : Math.max(pickup + 60_000, fine - (15 - Math.floor(random() * 25)) * 60_000),
        created: inizio - (1 + Math.floor(random() * 48)) * 3_600_000,
      });
    }
  }
  const iso = (t: number | null) => (t === null ? null : new Date(t).toISOString());
  const rows = rides.map((r) => ({ ...r, pickup: iso(r.pickup), back: iso(r.back), created: iso(r.created) }));
  const { rows: inserted } = await tx.execute<{ id: number; user_id: number; bici_id: number; stato: string; motivo: string | null; created_at: string; fine: string }>(sql`
    insert into prenotazioni (user_id, bici_id, data_prenotazione, orario_inizio, orario_fine, inizio, fine, destinazione, stato,
                              motivo_cancellazione, ritirata_at, riconsegnata_at, created_at, updated_at)
    select r.u, r.b, r.d::date, r.s, r.e, (r.d::date + r.s::time) at time zone ${timeZone}, (r.d::date + r.e::time) at time zone ${timeZone},
           r.dest, r.stato, r.motivo, r.pickup::timestamptz, r.back::timestamptz, r.created::timestamptz,
           coalesce(r.back::timestamptz, r.created::timestamptz)
      from json_to_recordset(${JSON.stringify(rows)}::json)
        as r(u int, b int, d text, s text, e text, dest text, stato text, motivo text, pickup text, back text, created text)
    returning id, user_id, bici_id, stato, motivo_cancellazione as motivo, created_at::text, fine::text`);

  // Payments: every external's booking was paid; the ones the user cancelled were refunded.
  const externals = new Set(riders.filter((r) => !r.residente).map((r) => r.id));
  const payments = inserted
    .filter((p) => externals.has(p.user_id))
    .map((p) => ({ id: p.id, refunded: p.motivo === 'utente', paid: p.created_at }));
  await tx.execute(sql`
    insert into pagamenti (prenotazione_id, provider, provider_payment_id, amount, currency, status, completed_at, refunded_at, created_at, updated_at)
    select p.id, 'simulated', 'pi_demo_' || p.id, 250, 'eur', case when p.refunded then 'refunded' else 'completed' end,
           p.paid::timestamptz + interval '2 minutes', case when p.refunded then p.paid::timestamptz + interval '3 hours' end,
           p.paid::timestamptz, p.paid::timestamptz + interval '2 minutes'
      from json_to_recordset(${JSON.stringify(payments)}::json) as p(id int, refunded boolean, paid text)`);

  // A damage report for about one ride in 40, most of them dealt with.
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
    }));
  await tx.execute(sql`
    insert into segnalazioni_danni (prenotazione_id, bici_id, user_id, categoria, descrizione, created_at, risolta_at)
    select d.p, d.b, d.u, d.c, d.t, d.at::timestamptz, case when d.solved then d.at::timestamptz + interval '1 day' end
      from json_to_recordset(${JSON.stringify(damages)}::json) as d(p int, b int, u int, c text, t text, at text, solved boolean)`);

  // The waitlist (issue 21): on weekdays at the busy hours some people waited in vain (the
  // window started with no bike freed) and a few were served by an offer.
  const waits: { u: number; d: string; s: string; e: string; stato: 'scaduta' | 'servita' }[] = [];
  const waiters = riders.filter((r) => !r.demo);
  for (let back = HISTORY_DAYS; back >= 1; back--) {
    const d = addDays(today, -back);
    const weekday = new Date(`${d}T12:00:00Z`).getUTCDay();
    if (weekday === 0 || weekday === 6) continue;
    const count = Math.floor(random() * 4);
    for (let n = 0; n < count; n++) {
      const start = pick([7, 8, 17, 18, 18, 19]) * 4;
      waits.push({ u: pick(waiters).id, d, s: hhmm(start), e: hhmm(start + 4 + Math.floor(random() * 5)), stato: random() < 0.25 ? 'servita' : 'scaduta' });
    }
  }
  await tx.execute(sql`
    insert into attese (user_id, data_prenotazione, orario_inizio, orario_fine, inizio, fine, stato, created_at, ended_at)
    select w.u, w.d::date, w.s, w.e, (w.d::date + w.s::time) at time zone ${timeZone}, (w.d::date + w.e::time) at time zone ${timeZone},
           w.stato, (w.d::date + w.s::time) at time zone ${timeZone} - interval '3 hours', (w.d::date + w.s::time) at time zone ${timeZone}
      from json_to_recordset(${JSON.stringify(waits)}::json) as w(u int, d text, s text, e text, stato text)`);

  // A closure next month (from the 10th, three days) and bike 14's planned maintenance a week from today.
  const [y, m] = today.split('-').map(Number) as [number, number];
  const nextMonth = `${m === 12 ? y + 1 : y}-${String(m === 12 ? 1 : m + 1).padStart(2, '0')}-10`;
  await tx.execute(sql`
    insert into chiusure (dal, al, motivo) values (${nextMonth}::date, ${addDays(nextMonth, 2)}::date, 'Chiusura per lavori nel cortile')`);
  const bike14 = opts.bikes.find((b) => b.numero === '14') ?? opts.bikes.at(-1);
  const day = addDays(today, 7);
  if (bike14) {
    await tx.execute(sql`
      insert into manutenzioni (bici_id, inizio, fine, motivo)
      values (${bike14.id}, ${zonedInstant(day, '09:00', timeZone)!.toISOString()}::timestamptz,
              ${zonedInstant(day, '18:00', timeZone)!.toISOString()}::timestamptz, 'Revisione programmata')`);
  }
  return { rides: inserted.length };
}
