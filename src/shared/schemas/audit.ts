import { AUDIT_ACTIONS } from '../audit-actions.js';
import { isRealDate } from '../time.js';
import { z } from '../zod-it.js';
import { idParam } from './ids.js';
import { sedeIdParam } from './sedi.js';
import { msg, type PlainKey } from './message.js';
import { pageFields } from './paging.js';

/**
 * The audit log on screen (issue 23, behaviour.md §8 "Every admin change is written to an
 * audit log"): `/admin → Registro attività`, read-only. GET /api/admin/audit (one page, newest
 * first, the total in X-Total-Count as decision 013's lists), GET /api/admin/audit.csv (every
 * matching row) and GET /api/admin/audit/admins (the filter's choices). No route writes it.
 */

export {
  AUDIT_ACTIONS,
  AUDIT_ACTION_LABELS,
  AUDIT_ENTITY_LABELS,
  auditActionLabel,
  auditEntityLabel,
  auditSubject,
  type AuditActionKey,
} from '../audit-actions.js';

/** An empty filter in the query string (`?azione=`) is no filter. */
const blankAsAbsent = (v: unknown) => (v === '' ? undefined : v);

const day = (key: PlainKey) => z.preprocess(blankAsAbsent, z.string(msg(key)).refine(isRealDate, msg(key)).optional());

const filterFields = {
  admin: z.preprocess(blankAsAbsent, idParam('schemas.invalidAdmin').optional()),
  azione: z.preprocess(blankAsAbsent, z.enum(AUDIT_ACTIONS, msg('schemas.invalidAction')).optional()),
  dal: day('schemas.invalidStartDate'),
  al: day('schemas.invalidEndDate'),
  /** The entries about this sede's things (issue 47, `audit_log.sede_id`). */
  sedeId: z.preprocess(blankAsAbsent, sedeIdParam.optional()),
};
const DATES_IN_ORDER = {
  check: (f: { dal?: string | undefined; al?: string | undefined }) => !f.dal || !f.al || f.dal <= f.al,
  params: { ...msg('schemas.endDateBeforeStart'), path: ['al'] },
};

/**
 * GET /api/admin/audit.csv?admin=&azione=&dal=&al= — `admin`: the acting admin's user id;
 * `azione`: one of AUDIT_ACTIONS; `dal`/`al`: days in TZ_APP, both included (`YYYY-MM-DD`).
 */
export const auditFiltersSchema = z.object(filterFields).refine(DATES_IN_ORDER.check, DATES_IN_ORDER.params);
export type AuditFilters = z.output<typeof auditFiltersSchema>;

/** GET /api/admin/audit: the filters, and the page as decision 013's lists (`page` 1-based, `pageSize` ≤ 200). */
export const auditQuerySchema = z
  .object({
    ...filterFields,
    ...pageFields,
  })
  .refine(DATES_IN_ORDER.check, DATES_IN_ORDER.params);
export type AuditQuery = z.output<typeof auditQuerySchema>;

/** One entry of the log. `before`/`after`: the thing as the API showed it (never a password hash), or null. */
export interface AuditEntryDto {
  id: number;
  /** ISO instant. */
  createdAt: string;
  /** The acting admin; null once that account is deleted (the email stays). */
  actorId: number | null;
  actorEmail: string | null;
  /** The role the actor acted in (issue 48): `admin`, `portineria`, `officina`; null for the service itself. */
  actorRuolo: 'admin' | 'portineria' | 'officina' | null;
  /** One of AUDIT_ACTIONS. */
  action: string;
  entity: string;
  entityId: string | null;
  /**
   * The subject as the staff know it (issue 31): `Bici 07`, a person's name, `Bici 07 per Maria
   * Rossi`; `[dato rimosso]` for an erased person; null when the kind says it all (the rules, a
   * closure, an import) or for an old entry whose thing is gone.
   */
  soggetto: string | null;
  /** The sede of what was acted on (issue 47); null for the install's own things. */
  sedeId: number | null;
  before: unknown;
  after: unknown;
}

/** GET /api/admin/audit/admins: who can be filtered by — the admins in the log and today's admins, by email. */
export interface AuditActorDto {
  id: number;
  email: string;
}
