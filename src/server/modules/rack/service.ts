import { hash, randomBytes } from 'node:crypto';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { runTransaction } from '../../db/transaction.js';
import { type Actor, writeAudit } from '../audit/index.js';
import { rastrellieraLink } from './tables.js';

/** The channel on which a new link or a revocation is told to every process (decision 044). */
export const RACK_CHANNEL = 'bicielis_rastrelliera';

/** A token is 32 random bytes, base64url: 43 characters. Any other shape is simply not found. */
export const RACK_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

const hashToken = (token: string) => hash('sha256', token, 'hex');

/**
 * Makes a new link and ends the live one, in one transaction (audited, without the token);
 * every process is told, after the commit, to close the old link's streams. The token is
 * returned once: only its hash is kept.
 */
export async function createRackLink(db: Db, actor: Actor, now: Date): Promise<{ token: string; id: number; createdAt: Date }> {
  const token = randomBytes(32).toString('base64url');
  const row = await runTransaction(db, async (tx) => {
    // Two admins making a link at once: the second waits for the first's commit, then ends its link.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('rastrelliera_link'))`);
    const ended = await tx
      .update(rastrellieraLink)
      .set({ revokedAt: now })
      .where(isNull(rastrellieraLink.revokedAt))
      .returning({ id: rastrellieraLink.id });
    const [made] = await tx.insert(rastrellieraLink).values({ tokenHash: hashToken(token), createdAt: now }).returning();
    await writeAudit(
      tx,
      actor,
      { action: 'rack.create', entity: 'rack', entityId: made!.id, before: { linkPrecedenteRevocato: ended.length > 0 }, after: { attivo: true } },
      now,
    );
    await tx.execute(sql`select pg_notify(${RACK_CHANNEL}, ${String(made!.id)})`);
    return made!;
  });
  return { token, id: row.id, createdAt: row.createdAt };
}

/** Ends the live link (audited); false when there was none. Every process closes its streams. */
export async function revokeRackLink(db: Db, actor: Actor, now: Date): Promise<boolean> {
  return runTransaction(db, async (tx) => {
    const ended = await tx
      .update(rastrellieraLink)
      .set({ revokedAt: now })
      .where(isNull(rastrellieraLink.revokedAt))
      .returning({ id: rastrellieraLink.id });
    if (ended.length === 0) return false;
    await writeAudit(tx, actor, { action: 'rack.revoke', entity: 'rack', entityId: ended[0]!.id, before: { attivo: true }, after: { attivo: false } }, now);
    await tx.execute(sql`select pg_notify(${RACK_CHANNEL}, 'revoked')`);
    return true;
  });
}

/** Whether a link is live, and since when. */
export async function rackLinkStatus(db: Db): Promise<{ attivo: boolean; creatoIl: string | null }> {
  const [row] = await db.select({ createdAt: rastrellieraLink.createdAt }).from(rastrellieraLink).where(isNull(rastrellieraLink.revokedAt));
  return { attivo: Boolean(row), creatoIl: row ? row.createdAt.toISOString() : null };
}

/** The live link a token opens (its id), or null: wrong, malformed or revoked. */
export async function liveLinkOf(db: Db, token: string): Promise<number | null> {
  if (!RACK_TOKEN_PATTERN.test(token)) return null;
  const [row] = await db
    .select({ id: rastrellieraLink.id })
    .from(rastrellieraLink)
    .where(and(eq(rastrellieraLink.tokenHash, hashToken(token)), isNull(rastrellieraLink.revokedAt)));
  return row?.id ?? null;
}

/** The live link's id, or null (the streams' backstop when a notification was missed). */
export async function liveLinkId(db: Db): Promise<number | null> {
  const [row] = await db.select({ id: rastrellieraLink.id }).from(rastrellieraLink).where(isNull(rastrellieraLink.revokedAt));
  return row?.id ?? null;
}
