import { hash, randomBytes } from 'node:crypto';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { runTransaction } from '../../db/transaction.js';
import { notFound } from '../../http/errors.js';
import { testo } from '../../../shared/i18n/index.js';
import { type Actor, writeAudit } from '../audit/index.js';
import { openSede } from '../sedi/index.js';
import { rastrellieraLink } from './tables.js';

/** The channel on which a new link or a revocation is told to every process (decision 044). */
export const RACK_CHANNEL = 'bicielis_rastrelliera';

/** A token is 32 random bytes, base64url: 43 characters. Any other shape is simply not found. */
export const RACK_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

const hashToken = (token: string) => hash('sha256', token, 'hex');

/**
 * The sede a rack request is about (issue 47): the one named, which must be open (else 404), or
 * the first open sede, so that a client that never heard of sedi works as before.
 */
export async function rackSede(db: Pick<Db, 'execute'>, sedeId: number | undefined): Promise<number> {
  if (sedeId !== undefined) {
    const sede = await openSede(db, sedeId);
    if (sede === null) throw notFound(testo('schemas.sedeNotFound'), 'SEDE_NOT_FOUND');
    return sede.id;
  }
  const { rows } = await db.execute<{ id: number | null }>(sql`select min(id) as id from sedi where archiviata_at is null`);
  const first = rows[0]?.id ?? null;
  if (first === null) throw notFound(testo('schemas.sedeNotFound'), 'SEDE_NOT_FOUND');
  return first;
}

/**
 * Makes a new link for a sede (the first open sede when not said) and ends that sede's live one, in one transaction (audited with
 * the sede, without the token); another sede's link stays. Every process is told, after the
 * commit, to close the old link's streams. The token is returned once: only its hash is kept.
 */
export async function createRackLink(db: Db, actor: Actor, now: Date, sede?: number): Promise<{ token: string; id: number; createdAt: Date }> {
  const token = randomBytes(32).toString('base64url');
  const sedeId = sede ?? (await rackSede(db, undefined));
  const row = await runTransaction(db, async (tx) => {
    // Two admins making a link for one sede at once: the second waits for the first's commit, then ends its link.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('rastrelliera_link'), ${sedeId}::int)`);
    const ended = await tx
      .update(rastrellieraLink)
      .set({ revokedAt: now })
      .where(and(eq(rastrellieraLink.sedeId, sedeId), isNull(rastrellieraLink.revokedAt)))
      .returning({ id: rastrellieraLink.id });
    const [made] = await tx.insert(rastrellieraLink).values({ tokenHash: hashToken(token), sedeId, createdAt: now }).returning();
    await writeAudit(
      tx,
      actor,
      {
        action: 'rack.create',
        entity: 'rack',
        entityId: made!.id,
        sedeId,
        before: { linkPrecedenteRevocato: ended.length > 0 },
        after: { attivo: true, sedeId },
      },
      now,
    );
    await tx.execute(sql`select pg_notify(${RACK_CHANNEL}, ${String(made!.id)})`);
    return made!;
  });
  return { token, id: row.id, createdAt: row.createdAt };
}

/**
 * Ends a sede's live link (the first open sede's when not said; audited with the sede); false
 * when there was none. Every process closes its streams.
 */
export async function revokeRackLink(db: Db, actor: Actor, now: Date, sede?: number): Promise<boolean> {
  const sedeId = sede ?? (await rackSede(db, undefined));
  return runTransaction(db, async (tx) => {
    const ended = await tx
      .update(rastrellieraLink)
      .set({ revokedAt: now })
      .where(and(eq(rastrellieraLink.sedeId, sedeId), isNull(rastrellieraLink.revokedAt)))
      .returning({ id: rastrellieraLink.id });
    if (ended.length === 0) return false;
    await writeAudit(
      tx,
      actor,
      { action: 'rack.revoke', entity: 'rack', entityId: ended[0]!.id, sedeId, before: { attivo: true, sedeId }, after: { attivo: false, sedeId } },
      now,
    );
    await tx.execute(sql`select pg_notify(${RACK_CHANNEL}, 'revoked')`);
    return true;
  });
}

/** Whether a sede's link is live, and since when. */
export async function rackLinkStatus(db: Db, sedeId: number): Promise<{ attivo: boolean; creatoIl: string | null }> {
  const [row] = await db
    .select({ createdAt: rastrellieraLink.createdAt })
    .from(rastrellieraLink)
    .where(and(eq(rastrellieraLink.sedeId, sedeId), isNull(rastrellieraLink.revokedAt)));
  return { attivo: Boolean(row), creatoIl: row ? row.createdAt.toISOString() : null };
}

/** The live link a token opens (its id and sede), or null: wrong, malformed or revoked. */
export async function liveLinkOf(db: Db, token: string): Promise<{ id: number; sedeId: number } | null> {
  if (!RACK_TOKEN_PATTERN.test(token)) return null;
  const [row] = await db
    .select({ id: rastrellieraLink.id, sedeId: rastrellieraLink.sedeId })
    .from(rastrellieraLink)
    .where(and(eq(rastrellieraLink.tokenHash, hashToken(token)), isNull(rastrellieraLink.revokedAt)));
  return row ?? null;
}

/** The live links' ids, one at most per sede (the streams' backstop when a notification was missed). */
export async function liveLinkIds(db: Db): Promise<Set<number>> {
  const rows = await db.select({ id: rastrellieraLink.id }).from(rastrellieraLink).where(isNull(rastrellieraLink.revokedAt));
  return new Set(rows.map((r) => r.id));
}
