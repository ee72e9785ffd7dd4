import { sql } from 'drizzle-orm';
import {
  type LockKind,
  type RideCodeDto,
} from '../../../shared/schemas/locks.js';
import { zonedClock } from '../../../shared/time.js';
import { conflict } from '../../http/errors.js';
import { asOf, getUserBooking } from '../bookings/index.js';

type BookingReadDeps = Parameters<typeof getUserBooking>[0];
import { prenotazioni } from '../bookings/tables.js';
import { codiciCorsa, lucchetti } from './tables.js';
import { testo } from '../../../shared/i18n/index.js';

interface CodeRow extends Record<string, unknown> {
  inizio: string;
  fine: string;
  ritirata_at: string | null;
  tipo: 'combinazione' | 'smart' | null;
  codice: string | null;
  pin: string | null;
  pin_stato: string | null;
  valido_da: string | null;
  valido_fino: string | null;
  previous_out: boolean;
}

/**
 * GET /api/prenotazioni/:id/codice (issue 34, decision 044): the code of the booking's lock for
 * its owner, from the pick-up window until the return. The booking is read as of now (a no-show
 * or a hold past its instant reads released, decision 035); someone else's is 404 as every
 * booking. The refusals come in the order: payment, a booking over, too early, a
 * combination code still with the previous ride, a smart PIN not active. The first answer marks
 * the code shown (`mostrato_at`): a booking that then ends without a pick-up marks the lock
 * `Codice da cambiare` (a trigger, drizzle/0020_locks.sql).
 */
export async function rideCode(deps: BookingReadDeps, userId: number, id: number): Promise<RideCodeDto> {
  const booking = await getUserBooking(deps, userId, id);
  const unpaid = booking.paymentStatus === 'pending' || booking.paymentStatus === 'failed';
  if (booking.stato === 'attiva' && unpaid) throw conflict(testo('locksApi.codePayFirst'), 'PAYMENT_REQUIRED');
  if (booking.stato !== 'attiva') throw conflict(testo('locksApi.codeGone'), 'CODE_GONE');
  const now = deps.clock.now();
  const { rows } = await deps.db.execute<CodeRow>(sql`
    select p.inizio, p.fine, p.ritirata_at, l.tipo, l.codice, c.pin, c.pin_stato, c.valido_da, c.valido_fino,
           exists (select 1 from ${prenotazioni} prev
                    where prev.bici_id = p.bici_id and prev.id <> p.id and prev.stato = 'attiva'
                      and prev.ritirata_at is not null and prev.riconsegnata_at is null) as previous_out
      from ${prenotazioni} p
      left join ${lucchetti} l on l.bici_id = p.bici_id
      left join ${codiciCorsa} c on c.prenotazione_id = p.id
     where p.id = ${id}`);
  const row = rows[0]!;
  const inizio = new Date(row.inizio);
  const from = new Date(inizio.getTime() - asOf.PICKUP_EARLY_MINUTES * 60_000);
  if (now < from) throw conflict(testo('locksApi.codeFrom', { ora: zonedClock(from, deps.config.timeZone) }), 'CODE_NOT_YET');
  const tipo: LockKind = row.tipo ?? 'nessuno';
  let answer: RideCodeDto;
  if (tipo === 'smart') {
    if ((row.pin_stato !== 'attivo' && row.pin_stato !== 'da_estendere') || !row.pin || !row.valido_da || !row.valido_fino) {
      throw conflict(testo('locksApi.codeUnavailable'), 'CODE_UNAVAILABLE');
    }
    answer = { tipo, codice: row.pin, validoDa: new Date(row.valido_da).toISOString(), validoFino: new Date(row.valido_fino).toISOString() };
  } else {
    if (tipo === 'combinazione' && row.ritirata_at === null && row.previous_out) throw conflict(testo('locksApi.codeUpdating'), 'CODE_UPDATING');
    answer = { tipo, codice: tipo === 'combinazione' ? row.codice : null, validoDa: from.toISOString(), validoFino: new Date(row.fine).toISOString() };
  }
  await deps.db.execute(sql`
    insert into ${codiciCorsa} (prenotazione_id, mostrato_at) values (${id}, ${now.toISOString()}::timestamptz)
    on conflict (prenotazione_id) do update set mostrato_at = coalesce(${codiciCorsa.mostratoAt}, excluded.mostrato_at)
     where ${codiciCorsa.mostratoAt} is null`);
  return answer;
}
