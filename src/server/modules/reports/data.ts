import { TZDate } from '@date-fns/tz';
import { format } from 'date-fns/format';
import { it } from 'date-fns/locale/it';
import { sql } from 'drizzle-orm';
import { ANONYMOUS_USER_LABEL, APP_NAME } from '../../../shared/constants.js';
import type { Lingua } from '../../../shared/i18n/index.js';
import { tFor } from '../../../shared/i18n/all.js';
import { longDate, money } from '../../../shared/i18n/format.js';
import type { Db } from '../../db/client.js';
import type { DayReportData, DayReportRow } from '../../integrations/pdf/day-report.js';
import { DAMAGE_CATEGORIES, type DamageCategory } from '../../../shared/damage.js';
import { toMinutes } from '../../../shared/time.js';
import { sediNames } from '../sedi/index.js';

export const ORGANISATION = 'Collegio ELIS';

const STATUS_LABEL = { attiva: 'reportPdf.status.active', completata: 'reportPdf.status.completed', cancellata: 'reportPdf.status.cancelled' } as const;
const BIKE_LABEL = {
  disponibile: 'reportPdf.bikes.available',
  prenotata: 'reportPdf.bikes.booked',
  manutenzione: 'reportPdf.bikes.maintenance',
  fuori_servizio: 'reportPdf.bikes.outOfService',
} as const;

/** "2026-11-23" → "lunedì 23 novembre 2026" */
export function longItalianDate(date: string): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return format(new Date(y, m - 1, d, 12), 'EEEE d MMMM yyyy', { locale: it });
}

/** "2026-11-23" → "lunedì 23 novembre 2026" / "Monday 23 November 2026". */
export const reportLongDate = (date: string, lingua: Lingua): string => (lingua === 'it' ? longItalianDate(date) : longDate(date, lingua));

interface BookingRow extends Record<string, unknown> {
  user_id: number;
  orario_inizio: string;
  orario_fine: string;
  destinazione: string | null;
  stato: string;
  nome: string;
  cognome: string;
  is_residente: boolean;
  numero: string;
  modello: string;
  pay_status: string | null;
  amount: number | null;
  fine: string;
  ritirata_at: string | null;
  riconsegnata_at: string | null;
  motivo_cancellazione: string | null;
  sede_id: number;
}

/** The ride's word for a row (decision 022): a no-show, a ride in ritardo, else the state. */
function statusLabel(r: BookingRow, now: Date, lingua: Lingua): string {
  const t = tFor(lingua);
  if (r.stato === 'cancellata' && r.motivo_cancellazione === 'mancato_ritiro') return t('reportPdf.status.noShow');
  if (r.stato === 'attiva' && r.ritirata_at && new Date(r.fine) <= now) return t('reportPdf.status.late');
  if (r.stato === 'attiva' && r.ritirata_at) return t('reportPdf.status.inProgress');
  return r.stato in STATUS_LABEL ? t(STATUS_LABEL[r.stato as keyof typeof STATUS_LABEL]) : r.stato;
}

function paymentLabel(row: BookingRow, lingua: Lingua): string {
  const t = tFor(lingua);
  switch (row.pay_status) {
    case 'completed':
      return t('reportPdf.payment.paid', { importo: money(row.amount ?? 0, lingua) });
    case 'pending':
      return t('reportPdf.payment.pending');
    case 'refunded':
      return t('reportPdf.payment.refunded');
    case 'failed':
      return t('reportPdf.payment.failed');
    default:
      return row.is_residente ? t('reportPdf.payment.free') : '-';
  }
}

const isDamageCategory = (c: string): c is DamageCategory => (DAMAGE_CATEGORIES as readonly string[]).includes(c);

/**
 * For each hour of the day (wall clock of TZ_APP, so DST days still have 24 columns), how
 * many of the day's bookings that were not cancelled are in use at some point of it.
 */
export function hourlyUsage(rows: { orarioInizio: string; orarioFine: string; stato: string }[]): number[] {
  const hours = new Array<number>(24).fill(0);
  for (const r of rows) {
    if (r.stato === 'cancellata') continue;
    const start = toMinutes(r.orarioInizio);
    const end = toMinutes(r.orarioFine);
    for (let h = Math.floor(start / 60); h < 24 && h * 60 < end; h++) hours[h]! += 1;
  }
  return hours;
}

/**
 * With several sedi (issue 47), one line per open sede (and an archived one with bookings that
 * day) and the total: bookings, cancelled, net revenue. Null with one sede: the report as before.
 * A payment whose booking was deleted has no sede: it counts in the total only.
 */
async function sedeLines(db: Db, rows: BookingRow[], detachedNet: number, lingua: Lingua): Promise<string[] | null> {
  const sedi = await sediNames(db);
  if (!sedi.several) return null;
  const t = tFor(lingua);
  const line = (sede: string, of: BookingRow[], extra = 0) =>
    t('sediReport.line', {
      sede,
      bookings: of.length,
      cancelled: of.filter((r) => r.stato === 'cancellata').length,
      net: money(of.reduce((s, r) => s + (r.pay_status === 'completed' ? (r.amount ?? 0) : 0), 0) + extra, lingua),
    });
  const { rows: open } = await db.execute<{ id: number }>(sql`select id from sedi where archiviata_at is null order by id`);
  const ids = [...new Set([...open.map((s) => s.id), ...rows.map((r) => r.sede_id)])].sort((a, b) => a - b);
  return [
    ...ids.map((id) => line(sedi.names.get(id) ?? '', rows.filter((r) => r.sede_id === id))),
    line(t('sediReport.total'), rows, detachedNet),
  ];
}

/**
 * What the report of `date` shows, read at `now`, worded in `lingua`. Revenue also counts the
 * payments of that day's bookings an admin has since deleted (they are not in the table).
 */
export async function loadDayReport(db: Db, date: string, now: Date, timeZone: string, lingua: Lingua = 'it'): Promise<DayReportData> {
  const t = tFor(lingua);
  const anonymous = lingua === 'it' ? ANONYMOUS_USER_LABEL : t('reportPdf.anonymousUser');
  const bookings = await db.execute<BookingRow>(sql`
    select p.user_id, p.orario_inizio, p.orario_fine, p.destinazione, p.stato,
           coalesce(u.nome, ${anonymous}) as nome, coalesce(u.cognome, '') as cognome,
           coalesce(u.is_residente, p.residente) as is_residente, b.numero, b.modello,
           pay.status as pay_status, pay.amount,
           p.fine, p.ritirata_at, p.riconsegnata_at, p.motivo_cancellazione, p.sede_id
      from prenotazioni p
      -- An anonymous booking (decision 029) still counts: it has no name.
      left join users u on u.id = p.user_id
      join biciclette b on b.id = p.bici_id
      left join pagamenti pay on pay.prenotazione_id = p.id
     where p.data_prenotazione = ${date} and p.stato <> 'offerta'
     order by p.orario_inizio, p.id`);
  // Payments whose booking an admin deleted keep the booking's day (decision 015).
  const detached = await db.execute<{ status: string; amount: number }>(sql`
    select status, sum(amount)::int as amount from pagamenti
     where prenotazione_id is null and booking_date = ${date} group by status`);
  const bikes = await db.execute<{ stato: string; n: number }>(
    sql`select stato, count(*)::int as n from biciclette group by stato`,
  );
  const rows = bookings.rows;
  // The ride's events of the day (decision 022), by when they happened in TZ_APP.
  const onDay = (column: string) => sql`(${sql.raw(column)} at time zone ${timeZone})::date = ${date}::date`;
  const rides = await db.execute<{ picked: number; returned: number; late: number }>(sql`
    select (select count(*) from prenotazioni where ${onDay('ritirata_at')})::int as picked,
           (select count(*) from prenotazioni where ${onDay('riconsegnata_at')})::int as returned,
           (select count(*) from prenotazioni p where p.data_prenotazione = ${date} and p.ritirata_at is not null
               and (p.riconsegnata_at > p.fine or (p.stato = 'attiva' and p.fine <= ${now.toISOString()}::timestamptz)))::int as late`);
  const damages = await db.execute<{ numero: string; categoria: string; descrizione: string; nome: string | null; cognome: string | null; created_at: string }>(sql`
    select b.numero, d.categoria, d.descrizione, u.nome, u.cognome, d.created_at
      from interventi d join biciclette b on b.id = d.bici_id left join users u on u.id = d.segnalato_da
     where ${onDay('d.created_at')}
     order by d.created_at, d.id`);
  const ride = rides.rows[0]!;
  // The waitlist (issue 21): waits for this day's windows served through an offer, and those
  // whose window started with no bike ever offered.
  const waits = await db.execute<{ served: number; unserved: number }>(sql`
    select count(*) filter (where stato = 'servita')::int as served,
           -- a wait the minute job has not swept yet counts as what it is: its window started
           count(*) filter (where stato = 'scaduta' or (stato = 'in_attesa' and inizio <= ${now.toISOString()}::timestamptz))::int as unserved
      from attese where data_prenotazione = ${date}`);
  const waited = waits.rows[0] ?? { served: 0, unserved: 0 };

  const count = (pred: (r: BookingRow) => boolean) => rows.filter(pred).length;
  const sum = (status: string) =>
    rows.reduce((s, r) => s + (r.pay_status === status ? (r.amount ?? 0) : 0), 0) +
    detached.rows.reduce((s, r) => s + (r.status === status ? r.amount : 0), 0);
  const completed = sum('completed');
  const refunded = sum('refunded');
  const pending = sum('pending');
  const bikeCount = new Map(bikes.rows.map((b) => [b.stato, b.n]));
  const bikeTotal = bikes.rows.reduce((s, b) => s + b.n, 0);

  const tableRows: DayReportRow[] = rows.map((r) => ({
    orario: `${r.orario_inizio}-${r.orario_fine}`,
    utente: r.is_residente ? `${r.nome} ${r.cognome}` : t('reportPdf.externalUser', { nome: `${r.nome} ${r.cognome}` }),
    residente: r.is_residente,
    bici: t('reportPdf.bike', { numero: r.numero, modello: r.modello }),
    destinazione: r.destinazione?.trim() || t('reportPdf.noDestination'),
    stato: statusLabel(r, now, lingua),
    pagamento: paymentLabel(r, lingua),
  }));

  return {
    organisation: ORGANISATION,
    appName: APP_NAME,
    lingua,
    longDate: reportLongDate(date, lingua),
    generatedAt: format(new TZDate(now.getTime(), timeZone), 'dd/MM/yyyy HH:mm'),
    timeZone,
    totals: [
      { label: t('reportPdf.total'), value: String(rows.length) },
      { label: t('reportPdf.totals.active'), value: String(count((r) => r.stato === 'attiva')) },
      { label: t('reportPdf.totals.completed'), value: String(count((r) => r.stato === 'completata')) },
      { label: t('reportPdf.totals.cancelled'), value: String(count((r) => r.stato === 'cancellata')) },
    ],
    people: [
      { label: t('reportPdf.people.residents'), value: String(count((r) => r.is_residente)) },
      { label: t('reportPdf.people.externals'), value: String(count((r) => !r.is_residente)) },
      { label: t('reportPdf.people.distinct'), value: String(new Set(rows.map((r) => r.user_id)).size) },
    ],
    revenue: [
      { label: t('reportPdf.revenue.collected'), value: money(completed + refunded, lingua) },
      { label: t('reportPdf.revenue.refunded'), value: money(refunded, lingua) },
      { label: t('reportPdf.revenue.net'), value: money(completed, lingua) },
      { label: t('reportPdf.revenue.pending'), value: money(pending, lingua) },
    ],
    revenueNote: t('reportPdf.revenue.note'),
    bikes: [
      ...Object.entries(BIKE_LABEL).map(([stato, label]) => ({ label: t(label), value: String(bikeCount.get(stato) ?? 0) })),
      { label: t('reportPdf.total'), value: String(bikeTotal) },
    ],
    rides: [
      { label: t('reportPdf.rides.pickedUp'), value: String(ride.picked) },
      { label: t('reportPdf.rides.returned'), value: String(ride.returned) },
      { label: t('reportPdf.rides.noShows'), value: String(count((r) => r.stato === 'cancellata' && r.motivo_cancellazione === 'mancato_ritiro')) },
      { label: t('reportPdf.rides.late'), value: String(ride.late) },
      { label: t('reportPdf.rides.damages'), value: String(damages.rows.length) },
    ],
    waitlist: t('reportPdf.waitlist', { served: waited.served, unserved: waited.unserved }),
    damages: damages.rows.map((d) => ({
      ora: format(new TZDate(new Date(d.created_at).getTime(), timeZone), 'HH:mm'),
      bici: t('reportPdf.bikeNo', { numero: d.numero }),
      categoria: isDamageCategory(d.categoria) ? t(`emailNotices.damageCategory.${d.categoria}`) : d.categoria,
      descrizione: d.descrizione,
      utente: d.nome === null ? anonymous : `${d.nome} ${d.cognome ?? ''}`.trim(),
    })),
    hourly: hourlyUsage(rows.map((r) => ({ orarioInizio: r.orario_inizio, orarioFine: r.orario_fine, stato: r.stato }))),
    rows: tableRows,
    sedi: await sedeLines(db, rows, detached.rows.reduce((s, r) => s + (r.status === 'completed' ? r.amount : 0), 0), lingua),
  };
}
