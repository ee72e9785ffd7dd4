import { Readable } from 'node:stream';
import type { Lingua } from '../../../shared/i18n/index.js';
import { tFor } from '../../../shared/i18n/all.js';
import { TZDate } from '@date-fns/tz';
import { format } from 'date-fns/format';
import { and, count, desc, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import {
  auditActionLabel,
  auditEntityLabel,
  type AuditActionKey,
  type AuditActorDto,
  type AuditEntryDto,
  type AuditFilters,
  type AuditQuery,
} from '../../../shared/schemas/audit.js';
import type { Translate } from '../../../shared/i18n/index.js';
import { addDays, zonedToday } from '../../../shared/time.js';
import { auditLog } from '../audit/tables.js';
import { csvLine } from '../stats/index.js';
import type { AuditAction } from '../audit/index.js';
import type { AdminDeps } from './deps.js';
import { startOfDay, type Page } from './lists.js';

/**
 * The audit log read back (issue 23): `/admin → Registro attività`. Read-only by design: the
 * app has no route that updates or deletes an entry (the table stays writable in PostgreSQL,
 * for deleting an admin account and for erasing personal data, docs/ARCHITECTURE.md).
 */

// The shared list of actions and the writer's type name the same actions: adding one to
// either without the other fails the type check (and the screen would have no label for it).
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const actionsMatch: Same<AuditAction, AuditActionKey> = true;
void actionsMatch;

type ReadDeps = Pick<AdminDeps, 'db' | 'config'>;

/** The filters as SQL: the acting admin, the action, and the days `dal`…`al` of TZ_APP as instants. */
function conditions(deps: ReadDeps, filters: AuditFilters): SQL | undefined {
  const where: SQL[] = [];
  if (filters.admin !== undefined) where.push(eq(auditLog.actorId, filters.admin));
  if (filters.azione !== undefined) where.push(eq(auditLog.action, filters.azione));
  if (filters.sedeId !== undefined) where.push(eq(auditLog.sedeId, filters.sedeId));
  if (filters.dal !== undefined) where.push(gte(auditLog.createdAt, startOfDay(filters.dal, deps.config.timeZone)));
  if (filters.al !== undefined) where.push(lt(auditLog.createdAt, startOfDay(addDays(filters.al, 1), deps.config.timeZone)));
  return where.length ? and(...where) : undefined;
}

const columns = {
  id: auditLog.id,
  createdAt: auditLog.createdAt,
  actorId: auditLog.actorId,
  actorEmail: auditLog.actorEmail,
  actorRuolo: sql<AuditEntryDto['actorRuolo']>`${auditLog.actorRuolo}`,
  action: auditLog.action,
  entity: auditLog.entity,
  entityId: auditLog.entityId,
  soggetto: auditLog.soggetto,
  sedeId: auditLog.sedeId,
  before: auditLog.before,
  after: auditLog.after,
};

function entryDto(r: Omit<AuditEntryDto, 'createdAt'> & { createdAt: Date }): AuditEntryDto {
  return { ...r, createdAt: r.createdAt.toISOString() };
}

/**
 * An entry's subject in `lingua`: it is written in Italian with the entry (`Bici 07`,
 * `Bici 07 per Maria Rossi`, a person's name: audit/audit.ts); the bike's words are put into the
 * reader's language, names stay as written.
 */
export function auditSubject(soggetto: string | null, lingua: Lingua): string | null {
  if (soggetto === null || lingua === 'it') return soggetto;
  const booking = /^Bici (\S+) per (.+)$/s.exec(soggetto);
  if (booking) return tFor(lingua)('admin.auditBooking', { numero: booking[1]!, persona: booking[2]! });
  const bike = /^Bici (\S+)$/.exec(soggetto);
  return bike ? tFor(lingua)('admin.auditBike', { numero: bike[1]! }) : soggetto;
}

/** GET /api/admin/audit: one page, newest first (instant, then id), and the total of matching rows. */
export async function listAudit(deps: ReadDeps, query: AuditQuery): Promise<Page<AuditEntryDto>> {
  const where = conditions(deps, query);
  const [rows, [total]] = await Promise.all([
    deps.db
      .select(columns)
      .from(auditLog)
      .where(where)
      .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize),
    deps.db.select({ n: count() }).from(auditLog).where(where),
  ]);
  return { rows: rows.map(entryDto), total: total!.n };
}

/**
 * GET /api/admin/audit/admins: the filter's choices — every account that is an admin now or
 * appears in the log as one (a deleted account leaves `actor_id` null: nothing to filter by).
 */
export async function auditActors(deps: Pick<AdminDeps, 'db'>): Promise<AuditActorDto[]> {
  const { rows } = await deps.db.execute<{ id: number; email: string }>(sql`
    select u.id, u.email
      from users u
     where u.ruolo = 'admin' or exists (select 1 from ${auditLog} a where a.actor_id = u.id)
     order by u.email, u.id`);
  return rows;
}

/** The export's columns, in Italian as the staff read them. */
export const AUDIT_CSV_HEADER = ['ID', 'Data e ora', 'Amministratore', 'Azione', 'Codice azione', 'Oggetto', 'ID oggetto', 'Prima', 'Dopo'];

/** Rows read per query while the export streams: memory stays flat however long the log. */
const CSV_BATCH = 500;

const json = (value: unknown) => (value === null || value === undefined ? '' : JSON.stringify(value));

/**
 * GET /api/admin/audit.csv: every matching entry, newest first, as CSV (UTF-8 with BOM, `;`,
 * formula cells escaped: stats/csv.ts), streamed in batches read by keyset (instant, id) — the
 * instant compared as PostgreSQL's own text, so no microsecond is lost on the way through.
 * Times in TZ_APP; before/after as JSON text; the labels in the language of `t` (the request's).
 */
export function auditCsv(deps: ReadDeps & Pick<AdminDeps, 'clock'>, filters: AuditFilters, t: Translate): { fileName: string; stream: Readable } {
  const timeZone = deps.config.timeZone;
  const where = conditions(deps, filters);
  async function* lines(): AsyncGenerator<string> {
    yield '\uFEFF' + csvLine(AUDIT_CSV_HEADER);
    let cursor: { at: string; id: number } | undefined;
    for (;;) {
      const after = cursor ? sql`(${auditLog.createdAt}, ${auditLog.id}) < (${cursor.at}::timestamptz, ${cursor.id})` : undefined;
      const batch = await deps.db
        .select({ ...columns, cursor: sql<string>`${auditLog.createdAt}::text` })
        .from(auditLog)
        .where(and(where, after))
        .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
        .limit(CSV_BATCH);
      let chunk = '';
      for (const r of batch) {
        chunk += csvLine([
          r.id,
          format(new TZDate(r.createdAt.getTime(), timeZone), 'dd/MM/yyyy HH:mm:ss'),
          r.actorEmail,
          auditActionLabel(r.action, t),
          r.action,
          auditEntityLabel(r.entity, t),
          r.entityId,
          json(r.before),
          json(r.after),
        ]);
      }
      if (chunk) yield chunk;
      if (batch.length < CSV_BATCH) return;
      const last = batch[batch.length - 1]!;
      cursor = { at: last.cursor, id: last.id };
    }
  }
  const today = zonedToday(deps.clock.now(), timeZone);
  return { fileName: `registro_attivita_${today}.csv`, stream: Readable.from(lines()) };
}
