import { sql } from 'drizzle-orm';
import type { ImportResidentsResponse } from '../../../shared/schemas/admin.js';
import { residenti } from '../residents/tables.js';
import { users } from '../users/tables.js';
import { conflict } from '../../http/errors.js';
import { hashPassword } from '../auth/index.js';
import { writeAudit, type Actor } from './audit.js';
import type { AdminDeps } from './deps.js';
import { runTransaction } from '../../db/transaction.js';

export const MSG_NO_INITIAL_PASSWORD =
  "Importazione non disponibile: la password iniziale dei residenti (RESIDENT_INITIAL_PASSWORD) non è configurata sul server. Chiedi a chi gestisce il server di impostarla.";

/**
 * POST /api/admin/import-residents: every active resident code without an account (no
 * user with that sigla, nor with its email) becomes a user — email
 * `<sigla lower-case>@RESIDENT_EMAIL_DOMAIN`, the initial password (hashed once for all),
 * a forced password change at the first login, resident, active. One statement in one
 * transaction; a code taken meanwhile by another request is skipped (`on conflict do nothing`).
 */
export async function importResidents(deps: AdminDeps, actor: Actor): Promise<ImportResidentsResponse> {
  const password = deps.config.residentInitialPassword;
  if (!password) throw conflict(MSG_NO_INITIAL_PASSWORD, 'NO_INITIAL_PASSWORD');
  const passwordHash = await hashPassword(password);
  const domain = deps.config.residentEmailDomain;
  const now = deps.clock.now().toISOString();
  return runTransaction(deps.db, async (tx) => {
    const res = await tx.execute<{ imported: number; total: number; ids: number[] | null }>(sql`
      with candidates as (
        select r.sigla, r.nome, r.cognome, lower(r.sigla) || '@' || ${domain}::text as email
          from ${residenti} r
         where r.attivo
      ), inserted as (
        insert into ${users} (nome, cognome, email, password_hash, ruolo, is_residente, sigla_residente,
                              attiva, must_change_password, created_at, updated_at)
        select c.nome, c.cognome, c.email, ${passwordHash}, 'user', true, c.sigla, true, true,
               ${now}::timestamptz, ${now}::timestamptz
          from candidates c
         where not exists (select 1 from ${users} u where u.sigla_residente = c.sigla or u.email = c.email)
         order by c.sigla
        on conflict do nothing
        returning id
      )
      select (select count(*) from inserted)::int as imported,
             (select count(*) from candidates)::int as total,
             (select array_agg(id order by id) from inserted) as ids`);
    const { imported, total, ids } = res.rows[0]!;
    const result = { imported, skipped: total - imported };
    await writeAudit(
      tx,
      actor,
      { action: 'residents.import', entity: 'user', entityId: null, after: { ...result, userIds: ids ?? [] } },
      deps.clock.now(),
    );
    return result;
  });
}
