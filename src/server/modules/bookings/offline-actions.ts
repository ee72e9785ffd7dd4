import { eq, lt } from 'drizzle-orm';
import type { AppliedTimeSource } from '../../../shared/schemas/booking.js';
import { pgConstraint, pgErrorCode, type Db } from '../../db/client.js';
import { azioniOffline, type OFFLINE_ACTION_KINDS } from './tables.js';
import type { Tx } from '../../db/transaction.js';
import { conflict } from '../../http/errors.js';
import { testo } from '../../../shared/i18n/index.js';

/**
 * Ride actions made on the device (issue 22, decision 026): a pick-up or a return perhaps
 * queued offline, sent later and perhaps twice, with an id and the time made on the device.
 */

export type ActionKind = (typeof OFFLINE_ACTION_KINDS)[number];

/** What a request told about itself: neither field, one or both. */
export interface DeviceAction {
  id?: string | undefined;
  deviceTime?: Date | undefined;
}

/** The action an id belongs to: its user, its booking, its kind. */
export interface ActionKey {
  userId: number;
  bookingId: number;
  kind: ActionKind;
}

/** How far back the device's time may lie behind the server's (decision 026, bound c). */
export const DEVICE_TIME_MAX_AGE_MS = 24 * 60 * 60_000;
/** How long an applied action's id is kept against replays (the hourly purge job). */
export const OFFLINE_ACTIONS_KEPT_DAYS = 30;

/** The request's body fields as the service uses them (the schema checked their form). */
export function deviceAction(body: { idAzione?: string | undefined; oraDispositivo?: string | undefined }): DeviceAction {
  return {
    id: body.idAzione,
    deviceTime: body.oraDispositivo === undefined ? undefined : new Date(body.oraDispositivo),
  };
}

/** True when the request came from the device's queue (it carries an id or a device time). */
export const isDeviceAction = (action: DeviceAction) => action.id !== undefined || action.deviceTime !== undefined;

/**
 * The instant an action is applied at (decision 026): the device's time when it is
 * (a) not after the server's now, (b) not before `allowedFrom` (the pick-up's `ritiroDa`, the
 * return's `ritirata_at`), (c) not older than DEVICE_TIME_MAX_AGE_MS, and (d) before
 * `allowedBefore` when given (the pick-up's no-show instant); otherwise the server's now.
 * A device time out of bounds is never a refusal by itself.
 */
export function appliedTime(
  deviceTime: Date | undefined,
  now: Date,
  bounds: { allowedFrom: Date; allowedBefore?: Date },
): { at: Date; source: AppliedTimeSource } {
  if (deviceTime) {
    const d = deviceTime.getTime();
    const ok =
      d <= now.getTime() &&
      d >= bounds.allowedFrom.getTime() &&
      d >= now.getTime() - DEVICE_TIME_MAX_AGE_MS &&
      (bounds.allowedBefore === undefined || d < bounds.allowedBefore.getTime());
    if (ok) return { at: new Date(d), source: 'dispositivo' };
  }
  return { at: now, source: 'server' };
}

const sameAction = (row: { userId: number; prenotazioneId: number; tipo: ActionKind }, key: ActionKey) =>
  row.userId === key.userId && row.prenotazioneId === key.bookingId && row.tipo === key.kind;

async function readAction(db: Db | Tx, id: string) {
  const [row] = await db
    .select({ userId: azioniOffline.userId, prenotazioneId: azioniOffline.prenotazioneId, tipo: azioniOffline.tipo, fonteOra: azioniOffline.fonteOra })
    .from(azioniOffline)
    .where(eq(azioniOffline.id, id));
  return row;
}

/**
 * In the action's transaction, after its booking's locks: whether this id was applied
 * already. The same action (user, booking, kind) → its replay: the source of its time, and
 * nothing is to be done again; the id used for anything else → 409; unknown → null.
 * Replays of one booking's action are ordered by the bike's lock, so the first one's row is
 * committed when the next one reads here.
 */
export async function appliedBefore(tx: Tx, id: string | undefined, key: ActionKey): Promise<{ source: AppliedTimeSource } | null> {
  if (id === undefined) return null;
  const row = await readAction(tx, id);
  if (!row) return null;
  if (!sameAction(row, key)) throw conflict(testo('bookingsApi.actionReused'), 'ACTION_REUSED');
  return { source: row.fonteOra };
}

/**
 * Records the action's id: the last statement of the action's transaction, so that the
 * primary key is what makes it apply once (decision 023: a row nobody waits for but another
 * insert of the same id, which waits holding nothing this transaction still needs).
 */
export async function recordAction(
  tx: Tx,
  id: string | undefined,
  key: ActionKey,
  time: { deviceTime: Date | undefined; at: Date; source: AppliedTimeSource; now: Date },
): Promise<void> {
  if (id === undefined) return;
  await tx.insert(azioniOffline).values({
    id,
    userId: key.userId,
    prenotazioneId: key.bookingId,
    tipo: key.kind,
    oraDispositivo: time.deviceTime ?? null,
    oraApplicata: time.at,
    fonteOra: time.source,
    createdAt: time.now,
  });
}

/**
 * Runs an action's transaction (`apply`). When its insert of the id lost a race to another
 * transaction with the same id (two bookings' locks do not order them), it was rolled back
 * whole: the winner's row says whether this was a replay of that very action (`replayed`
 * with the winner's time source) or the id's reuse (409).
 */
export async function onceById<T>(
  db: Db,
  id: string | undefined,
  key: ActionKey,
  apply: () => Promise<T>,
  replayed: (source: AppliedTimeSource) => T,
): Promise<T> {
  try {
    return await apply();
  } catch (err) {
    if (id === undefined || pgErrorCode(err) !== '23505' || pgConstraint(err) !== 'azioni_offline_pkey') throw err;
    const row = await readAction(db, id);
    if (row && sameAction(row, key)) return replayed(row.fonteOra);
    throw conflict(testo('bookingsApi.actionReused'), 'ACTION_REUSED');
  }
}

/** The hourly purge: ids applied more than OFFLINE_ACTIONS_KEPT_DAYS ago (decision 026). */
export async function purgeOldOfflineActions(db: Db, now: Date): Promise<number> {
  const before = new Date(now.getTime() - OFFLINE_ACTIONS_KEPT_DAYS * 24 * 60 * 60_000);
  const removed = await db.delete(azioniOffline).where(lt(azioniOffline.createdAt, before)).returning({ id: azioniOffline.id });
  return removed.length;
}
