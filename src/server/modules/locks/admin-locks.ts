import { eq, sql } from 'drizzle-orm';
import type { BikeLockDto, BikeLockUpdate } from '../../../shared/schemas/locks.js';
import type { Clock } from '../../clock.js';
import type { Db } from '../../db/client.js';
import { runTransaction } from '../../db/transaction.js';
import { notFound } from '../../http/errors.js';
import { writeAudit, type Actor } from '../audit/index.js';
import { biciclette } from '../bikes/tables.js';
import type { Tx } from '../../db/transaction.js';
import { prenotazioni } from '../bookings/tables.js';
import { PIN_CHANNEL } from './pins.js';
import { codiciCorsa, lucchetti, type Lock } from './tables.js';
import { testo } from '../../../shared/i18n/index.js';

/** What the audit log keeps of a lock: never a code's digits (decision 044). */
export const MASKED_CODE = '••••';

const NO_LOCK: BikeLockDto = { tipo: 'nessuno', codice: null, idLucchetto: null, codiceDaCambiare: false };

export function lockDto(row: Pick<Lock, 'tipo' | 'codice' | 'idLucchetto' | 'daCambiareDal'> | undefined): BikeLockDto {
  if (!row) return NO_LOCK;
  return {
    tipo: row.tipo,
    codice: row.tipo === 'combinazione' ? row.codice : null,
    idLucchetto: row.tipo === 'smart' ? row.idLucchetto : null,
    codiceDaCambiare: row.daCambiareDal !== null,
  };
}

const audited = (l: BikeLockDto) => ({
  tipo: l.tipo,
  ...(l.tipo === 'combinazione' ? { codice: MASKED_CODE, codiceDaCambiare: l.codiceDaCambiare } : {}),
  ...(l.tipo === 'smart' ? { idLucchetto: l.idLucchetto } : {}),
});

/**
 * The PINs of the bike's bookings follow its lock (decision 044): a smart lock's bookings not
 * over yet each get a PIN to create on it (a refused one is tried again on the new id); any
 * other lock revokes the PINs made on the smart lock it replaces. Woken by the NOTIFY at commit.
 */
async function followLock(tx: Tx, biciId: number, after: BikeLockDto, now: Date): Promise<void> {
  if (after.tipo === 'smart') {
    await tx.execute(sql`
      -- The period as the insert's trigger gives it (drizzle/0020_locks.sql, 3: PICKUP_EARLY_MINUTES, + 15).
      insert into ${codiciCorsa} (prenotazione_id, id_lucchetto, pin_stato, valido_da, valido_fino)
      select p.id, ${after.idLucchetto}, 'da_creare', p.inizio - interval '10 minutes', p.fine + interval '15 minutes'
        from ${prenotazioni} p
       where p.bici_id = ${biciId} and p.stato = 'attiva' and p.fine > ${now.toISOString()}::timestamptz
      on conflict (prenotazione_id) do update
         set id_lucchetto = excluded.id_lucchetto, pin_stato = 'da_creare', prossimo_tentativo = null, tentativi = 0, ultimo_errore = null
       where ${codiciCorsa.pinStato} is null or (${codiciCorsa.pinStato} = 'da_creare' and ${codiciCorsa.pinId} is null)`);
    // PINs held on another device: revoked there, then made on this one (pins.ts).
    await tx.execute(sql`
      update ${codiciCorsa} c set pin_stato = 'da_revocare', prossimo_tentativo = null, tentativi = 0
        from ${prenotazioni} p
       where p.id = c.prenotazione_id and p.bici_id = ${biciId} and c.pin_id is not null
         and c.id_lucchetto is distinct from ${after.idLucchetto} and c.pin_stato in ('attivo', 'da_estendere', 'da_creare')`);
  } else {
    await tx.execute(sql`
      update ${codiciCorsa} c set pin_stato = case when c.pin_id is null then 'revocato' else 'da_revocare' end,
             prossimo_tentativo = null, tentativi = 0
        from ${prenotazioni} p
       where p.id = c.prenotazione_id and p.bici_id = ${biciId} and c.pin_stato in ('da_creare', 'attivo', 'da_estendere')`);
  }
  await tx.execute(sql`select pg_notify(${PIN_CHANNEL}, '')`);
}

/** Every bike's lock, by bike id (the admin's fleet list: a few hundred rows at most). */
export async function locksByBike(db: Pick<Db, 'select'>): Promise<Map<number, BikeLockDto>> {
  const rows = await db.select().from(lucchetti);
  return new Map(rows.map((r) => [r.biciId, lockDto(r)]));
}

/**
 * PUT /api/admin/biciclette/:id/lucchetto: the bike's lock replaced (none, a combination with its
 * code, a smart lock with its device's id). A new code clears `Codice da cambiare`. The bike's row
 * is locked first (decision 023: bikes, then their locks, as a pick-up takes them), the change
 * audited in the same transaction with the code masked.
 */
export async function setBikeLock(
  deps: { db: Db; clock: Clock },
  actor: Actor,
  biciId: number,
  input: BikeLockUpdate,
): Promise<BikeLockDto> {
  const now = deps.clock.now();
  return runTransaction(deps.db, async (tx) => {
    const bike = await tx.execute(sql`select id from ${biciclette} where id = ${biciId} for no key update`);
    if (bike.rows.length === 0) throw notFound(testo('bookingsApi.bikeNotFound'), 'BIKE_NOT_FOUND');
    const [beforeRow] = await tx.select().from(lucchetti).where(eq(lucchetti.biciId, biciId)).for('update');
    const before = lockDto(beforeRow);
    let after: BikeLockDto;
    if (input.tipo === 'nessuno') {
      await tx.delete(lucchetti).where(eq(lucchetti.biciId, biciId));
      after = NO_LOCK;
    } else {
      const values = {
        tipo: input.tipo,
        codice: input.tipo === 'combinazione' ? input.codice : null,
        idLucchetto: input.tipo === 'smart' ? input.idLucchetto.trim() : null,
        daCambiareDal: null,
        updatedAt: now,
      };
      const [row] = await tx
        .insert(lucchetti)
        .values({ biciId, ...values })
        .onConflictDoUpdate({ target: lucchetti.biciId, set: values })
        .returning();
      after = lockDto(row);
    }
    await followLock(tx, biciId, after, now);
    await writeAudit(tx, actor, { action: 'bike.lock', entity: 'bike', entityId: biciId, before: audited(before), after: audited(after) }, now);
    return after;
  });
}
