import { randomInt } from 'node:crypto';
import { CoalescedDrain } from '../../lib/coalesced-drain.js';
import { sql } from 'drizzle-orm';
import type { Clock } from '../../clock.js';
import type { Db } from '../../db/client.js';
import type { NotifiedCache } from '../../db/notifications.js';
import { emailLayout, escapeHtml, type Mailer, type MailMessage } from '../../integrations/mailer.js';
import { LockProviderError, type LockErrorReason, type LockProvider } from '../../integrations/locks/index.js';
import { activeAdmins } from '../notifications/index.js';
import type { Lingua, MessageKey } from '../../../shared/i18n/index.js';
import { tFor } from '../../../shared/i18n/all.js';
import { biciclette } from '../bikes/tables.js';
import { prenotazioni } from '../bookings/tables.js';
import { codiciCorsa, lucchetti } from './tables.js';

/** The channel the PIN triggers notify (drizzle/0020_locks.sql). */
export const PIN_CHANNEL = 'bicielis_pin';
/** Rows one claim takes, and claims one drain makes at most. */
const PIN_BATCH = 20;
const MAX_ROUNDS = 50;
/** A claimed row is another process's again after this long (a process that stopped mid-call). */
const LEASE_MINUTES = 2;
/** A temporary failure is tried again this long after (decision 044: every minute). */
const RETRY_MINUTES = 1;
/** After this many temporary failures in a row the admins are told (once). */
export const FAILURES_BEFORE_EMAIL = 3;
/** A late ride's PIN is extended this long past now whenever it has less than EXTEND_AHEAD left. */
const EXTEND_MINUTES = 60;
const EXTEND_AHEAD_MINUTES = 10;

export interface PinDeps {
  db: Db;
  clock: Clock;
  locks: LockProvider;
  mailer: Mailer;
  publicUrl: string;
  log: { error(obj: object, msg: string): void; warn?(obj: object, msg: string): void };
}

interface DueRow extends Record<string, unknown> {
  prenotazione_id: number;
  id_lucchetto: string | null;
  pin: string | null;
  pin_id: string | null;
  pin_stato: 'da_creare' | 'da_estendere' | 'da_revocare';
  valido_da: string;
  valido_fino: string;
  numero: string | null;
}

/** A keypad PIN of 6 digits, from the system's CSPRNG (the provider writes ours: decision 043). */
export const drawPin = () => String(randomInt(0, 1_000_000)).padStart(6, '0');

/** Claims the rows whose PIN is to create, extend or revoke and due at `now` (`skip locked`: one process each). */
async function claimDue(db: Db, now: Date): Promise<DueRow[]> {
  const at = now.toISOString();
  const { rows } = await db.execute<DueRow>(sql`
    with due as (
      select prenotazione_id from ${codiciCorsa}
       where pin_stato in ('da_creare', 'da_estendere', 'da_revocare')
         and (prossimo_tentativo is null or prossimo_tentativo <= ${at}::timestamptz)
       order by prenotazione_id limit ${PIN_BATCH}
         for update skip locked
    ), claimed as (
      update ${codiciCorsa} c
         set prossimo_tentativo = ${at}::timestamptz + make_interval(mins => ${LEASE_MINUTES})
        from due where c.prenotazione_id = due.prenotazione_id
      returning c.*
    )
    select claimed.prenotazione_id, claimed.id_lucchetto, claimed.pin, claimed.pin_id, claimed.pin_stato,
           claimed.valido_da, claimed.valido_fino, b.numero
      from claimed
      left join ${prenotazioni} p on p.id = claimed.prenotazione_id
      left join ${biciclette} b on b.id = p.bici_id`);
  return rows;
}

/** One row's call to the provider, outside any transaction; its outcome written after. */
async function serve(deps: PinDeps, row: DueRow): Promise<void> {
  const id = row.prenotazione_id;
  const lockId = row.id_lucchetto ?? '';
  try {
    if (row.pin_stato === 'da_creare') {
      // Drawn once and kept: a retry writes the same PIN (the provider's own rule, decision 043).
      let pin = row.pin;
      if (pin === null) {
        const { rows } = await deps.db.execute<{ pin: string }>(sql`
          update ${codiciCorsa} set pin = coalesce(pin, ${drawPin()}) where prenotazione_id = ${id} returning pin`);
        pin = rows[0]?.pin ?? null;
        if (pin === null) return;
      }
      const { pinId } = await deps.locks.createPin({
        lockId,
        pin,
        validFrom: new Date(row.valido_da),
        validUntil: new Date(row.valido_fino),
        label: `Prenotazione ${id}`,
      });
      // Ended while the call ran (the end's trigger found no PIN id): revoke what was just made.
      await deps.db.execute(sql`
        update ${codiciCorsa} set pin_id = ${pinId}, tentativi = 0, ultimo_errore = null, prossimo_tentativo = null,
               pin_stato = case pin_stato when 'da_creare' then 'attivo' when 'revocato' then 'da_revocare' else pin_stato end
         where prenotazione_id = ${id}`);
    } else if (row.pin_stato === 'da_estendere') {
      await deps.locks.changePinPeriod({
        lockId,
        pinId: row.pin_id!,
        validFrom: new Date(row.valido_da),
        validUntil: new Date(row.valido_fino),
      });
      await deps.db.execute(sql`
        update ${codiciCorsa} set tentativi = 0, ultimo_errore = null, prossimo_tentativo = null,
               pin_stato = case when pin_stato = 'da_estendere' and valido_fino = ${row.valido_fino}::timestamptz then 'attivo' else pin_stato end
         where prenotazione_id = ${id}`);
    } else {
      await deps.locks.deletePin({ lockId, pinId: row.pin_id! });
      await deps.db.execute(sql`
        update ${codiciCorsa} set pin_stato = 'revocato', tentativi = 0, ultimo_errore = null, prossimo_tentativo = null
         where prenotazione_id = ${id} and pin_stato = 'da_revocare'`);
      // Revoked from a lock its booking no longer uses (moved to another bike, the bike's smart
      // lock replaced): a booking not over yet gets a new PIN on its bike's smart lock now.
      await deps.db.execute(sql`
        update ${codiciCorsa} c
           set pin_stato = 'da_creare', pin = null, pin_id = null, id_lucchetto = l.id_lucchetto, prossimo_tentativo = null
          from ${prenotazioni} p join ${lucchetti} l on l.bici_id = p.bici_id and l.tipo = 'smart'
         where c.prenotazione_id = ${id} and p.id = c.prenotazione_id and c.pin_stato = 'revocato'
           and p.stato = 'attiva' and p.fine > ${deps.clock.now().toISOString()}::timestamptz`);
      // A deleted booking's row lived only for this (drizzle/0020_locks.sql, 6).
      await deps.db.execute(sql`
        delete from ${codiciCorsa} c where c.prenotazione_id = ${id} and c.pin_stato = 'revocato'
           and not exists (select 1 from ${prenotazioni} p where p.id = c.prenotazione_id)`);
    }
  } catch (err) {
    await failed(deps, row, err);
  }
}

/**
 * A failed call: a temporary reason is tried again in a minute, a refusal stops (the admins
 * fix the lock or its id). The admins are emailed once: at the refusal, or at the
 * FAILURES_BEFORE_EMAIL-th temporary failure in a row. Only the reason is kept, never the
 * provider's text.
 */
async function failed(deps: PinDeps, row: DueRow, err: unknown): Promise<void> {
  const reason: LockErrorReason = err instanceof LockProviderError ? err.reason : 'unreachable';
  if (reason === 'pin_conflict' && row.pin_stato === 'da_creare') {
    // The lock has this PIN already (another booking's): another is drawn at the next try, now.
    await deps.db.execute(sql`
      update ${codiciCorsa} set pin = null, prossimo_tentativo = null where prenotazione_id = ${row.prenotazione_id} and pin_stato = 'da_creare'`);
    return;
  }
  const temporary = !(err instanceof LockProviderError) || err.temporary;
  const now = deps.clock.now().toISOString();
  const { rows } = await deps.db.execute<{ tentativi: number }>(sql`
    update ${codiciCorsa}
       set tentativi = tentativi + 1, ultimo_errore = ${reason},
           prossimo_tentativo = ${temporary ? sql`${now}::timestamptz + make_interval(mins => ${RETRY_MINUTES})` : sql`'infinity'::timestamptz`}
     where prenotazione_id = ${row.prenotazione_id} and pin_stato = ${row.pin_stato}
    returning tentativi`);
  deps.log.warn?.({ prenotazioneId: row.prenotazione_id, operation: row.pin_stato, reason, providerCode: err instanceof LockProviderError ? err.providerCode : undefined }, 'lock provider call failed');
  const tries = rows[0]?.tentativi;
  if (tries === undefined) return;
  // A refusal stops the retries (until an admin sets the lock again), so it is met once.
  if (!temporary || tries === FAILURES_BEFORE_EMAIL) {
    for (const admin of await activeAdmins(deps.db)) {
      deps.mailer.sendInBackground(
        pinFailureEmail(admin.email, { biciNumero: row.numero, operation: row.pin_stato, reason, publicUrl: deps.publicUrl }, admin.lingua),
      );
    }
  }
}

/** The lock provider's reasons (LOCK_ERROR_MESSAGES) as the catalogue's keys, for the admins' email. */
const LOCK_REASON_KEYS = {
  unreachable: 'emailNotices.lockReason.unreachable',
  lock_offline: 'emailNotices.lockReason.lockOffline',
  auth: 'emailNotices.lockReason.auth',
  unknown_lock: 'emailNotices.lockReason.unknownLock',
  pin_conflict: 'emailNotices.lockReason.pinConflict',
  pin_missing: 'emailNotices.lockReason.pinMissing',
  lock_full: 'emailNotices.lockReason.lockFull',
  invalid: 'emailNotices.lockReason.invalid',
  rejected: 'emailNotices.lockReason.rejected',
} as const satisfies Record<LockErrorReason, MessageKey>;

export function pinFailureEmail(
  to: string,
  f: { biciNumero: string | null; operation: DueRow['pin_stato']; reason: LockErrorReason; publicUrl: string },
  lingua: Lingua = 'it',
): MailMessage {
  const t = tFor(lingua);
  const bike = f.biciNumero ? t('emailNotices.pin.ofBike', { bici: f.biciNumero }) : t('emailNotices.pin.ofABike');
  const subject = t('emailNotices.pin.subject', { op: f.operation, bike });
  const adminUrl = `${f.publicUrl}/admin`;
  const reason = t(LOCK_REASON_KEYS[f.reason]);
  const untilActive = t('emailNotices.pin.untilActive');
  const text = [
    t('emailNotices.pin.line', { op: f.operation, bike }),
    '',
    `${t('emailNotices.pin.reason')} ${reason}`,
    '',
    `${untilActive} ${adminUrl}`,
  ].join('\n');
  const html = emailLayout(
    subject,
    `<p>${t('emailNotices.pin.line', { op: f.operation, bike: escapeHtml(bike) })}</p>
<p><strong>${t('emailNotices.pin.reason')}</strong> ${escapeHtml(reason)}</p>
<p>${untilActive}
<a href="${escapeHtml(adminUrl)}">${escapeHtml(adminUrl)}</a></p>`,
    lingua,
  );
  return { to, subject, text, html };
}

/**
 * A late ride keeps its PIN until the return (decision 044): a picked-up booking still `attiva`
 * whose PIN has less than EXTEND_AHEAD minutes left gets EXTEND_MINUTES more from now. The
 * minute job runs it; the dispatcher then moves the PIN's period at the provider.
 */
export async function extendLateRidesPins(db: Db, now: Date): Promise<number> {
  const at = now.toISOString();
  const { rows } = await db.execute(sql`
    update ${codiciCorsa} c
       set valido_fino = ${at}::timestamptz + make_interval(mins => ${EXTEND_MINUTES}),
           pin_stato = 'da_estendere', prossimo_tentativo = null, tentativi = 0
      from ${prenotazioni} p
     where p.id = c.prenotazione_id and p.stato = 'attiva' and p.ritirata_at is not null
       and c.pin_stato = 'attivo' and c.valido_fino <= ${at}::timestamptz + make_interval(mins => ${EXTEND_AHEAD_MINUTES})
    returning c.prenotazione_id`);
  return rows.length;
}

/** Serves every due row at the clock's now, batch by batch: the dispatcher's drain and the minute job's backstop. */
export async function servePins(deps: PinDeps): Promise<number> {
  let served = 0;
  // Until none is due: a revocation may queue a creation (a PIN moving to another lock), a
  // PIN the lock already had another draw. Bounded, so that a provider answering nonsense
  // cannot hold the drain; the minute job comes back.
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const due = await claimDue(deps.db, deps.clock.now());
    if (due.length === 0) break;
    for (const row of due) await serve(deps, row);
    served += due.length;
  }
  return served;
}

/**
 * Smart-lock PINs are events (decision 044, as freed time in decision 035): triggers on
 * `prenotazioni` mark a booking's `codici_corsa` row and NOTIFY PIN_CHANNEL at the commit. One
 * dispatcher per process (main.ts puts it on the LISTEN connection) claims the due rows and
 * calls the provider outside any transaction; a failure never touches the booking. The minute
 * job is the backstop and the retry. `settled()`: every row due now served (tests' wait).
 */
export class PinDispatcher extends CoalescedDrain implements NotifiedCache {
  constructor(deps: PinDeps) {
    // The bookings are committed; the minute job serves the rows again.
    super(
      async () => {
        await servePins(deps);
      },
      (err) => deps.log.error({ err }, 'smart-lock PIN dispatch failed'),
    );
  }
}
