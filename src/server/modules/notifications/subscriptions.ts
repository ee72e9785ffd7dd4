import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { pushSubscriptions } from './tables.js';

/*
 * The browsers' push subscriptions (`push_subscriptions`, owned by this module): recorded and
 * removed from the profile (profile/service.ts), expired ones removed by the nightly retention
 * (decision 029); push.ts deletes those the push service says are gone.
 */

/** A browser's subscription as the profile received it, with its expiry when valid. */
export interface PushSubscriptionRow {
  endpoint: string;
  p256dh: string;
  auth: string;
  scadeAt: Date | null;
}

/**
 * Records a browser's push subscription for the user. Keyed by endpoint: a browser that
 * subscribes again (new keys), or that another account now uses, replaces its row.
 */
export async function savePushSubscription(db: Pick<Db, 'insert'>, userId: number, s: PushSubscriptionRow, now: Date): Promise<void> {
  await db
    .insert(pushSubscriptions)
    .values({ userId, endpoint: s.endpoint, p256dh: s.p256dh, auth: s.auth, scadeAt: s.scadeAt, createdAt: now })
    .onConflictDoUpdate({
      target: pushSubscriptions.endpoint,
      set: { userId, p256dh: s.p256dh, auth: s.auth, scadeAt: s.scadeAt, createdAt: now },
    });
}

/** Removes the user's subscription with this endpoint, if any (another user's is left alone). */
export async function deletePushSubscription(db: Pick<Db, 'delete'>, userId: number, endpoint: string): Promise<void> {
  await db.delete(pushSubscriptions).where(and(eq(pushSubscriptions.userId, userId), eq(pushSubscriptions.endpoint, endpoint)));
}

/** The nightly retention's step: subscriptions past the browser's own expiry at `at` go. One statement. */
export async function deleteExpiredPushSubscriptions(db: Pick<Db, 'execute'>, at: string): Promise<{ rowCount?: number | null }> {
  return db.execute(sql`delete from push_subscriptions where scade_at is not null and scade_at <= ${at}::timestamptz`);
}
