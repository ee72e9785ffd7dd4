import { eq, sql } from 'drizzle-orm';
import type { BikeLockDto, BikeLockUpdate } from '../../../shared/schemas/locks.js';
import type { Clock } from '../../clock.js';
import type { Db } from '../../db/client.js';
import { runTransaction } from '../../db/transaction.js';
import { notFound } from '../../http/errors.js';
import { writeAudit, type Actor } from '../audit/index.js';
import { biciclette } from '../bikes/tables.js';
import { lucchetti, type Lock } from './tables.js';

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
    if (bike.rows.length === 0) throw notFound('Bicicletta non trovata', 'BIKE_NOT_FOUND');
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
    await writeAudit(tx, actor, { action: 'bike.lock', entity: 'bike', entityId: biciId, before: audited(before), after: audited(after) }, now);
    return after;
  });
}
