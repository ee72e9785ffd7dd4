import type { ImportResidentsResponse } from '../../../shared/schemas/admin.js';
import { conflict } from '../../http/errors.js';
import { hashPassword } from '../auth/index.js';
import { insertResidentAccounts } from '../users/index.js';
import { writeAudit, type Actor } from '../audit/index.js';
import type { AdminDeps } from './deps.js';
import { runTransaction } from '../../db/transaction.js';
import { testo } from '../../../shared/i18n/index.js';

/**
 * POST /api/admin/import-residents: every active resident code without an account (no
 * user with that sigla, nor with its email) becomes a user — email
 * `<sigla lower-case>@RESIDENT_EMAIL_DOMAIN`, the initial password (hashed once for all),
 * a forced password change at the first login, resident, active. One statement in one
 * transaction; a code taken meanwhile by another request is skipped (`on conflict do nothing`).
 */
export async function importResidents(deps: AdminDeps, actor: Actor): Promise<ImportResidentsResponse> {
  const password = deps.config.residentInitialPassword;
  if (!password) throw conflict(testo('admin.noInitialPassword'), 'NO_INITIAL_PASSWORD');
  const passwordHash = await hashPassword(password);
  const domain = deps.config.residentEmailDomain;
  const now = deps.clock.now().toISOString();
  return runTransaction(deps.db, async (tx) => {
    const { imported, total, ids } = await insertResidentAccounts(tx, { passwordHash, domain, now });
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
