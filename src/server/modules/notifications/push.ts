import { and, eq, inArray } from 'drizzle-orm';
import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import { impostazioni, pushSubscriptions } from './tables.js';
import type * as webPushModuleType from 'web-push';

/** What a notification shows: its title, its text, and the page of the app it opens. */
export interface PushPayload {
  title: string;
  body: string;
  url: string;
  /** The language it is written in (issue 36): the worker marks the notification with it (push-sw.js). */
  lang?: 'it' | 'en';
}

/**
 * Web-push notifications to a user's installed app (decision 022): one message to each of
 * their browsers' subscriptions. Delivery is best effort: `send` never throws for a push
 * service's refusal; a subscription the service says is gone (404/410) is deleted.
 */
export interface PushSender {
  /** The VAPID public key browsers subscribe with (`applicationServerKey`). */
  publicKey(): Promise<string>;
  send(userId: number, payload: PushPayload): Promise<void>;
}

/** How long a push service keeps a notification for a browser that is offline: 1 hour. */
export const PUSH_TTL_SECONDS = 60 * 60;
/** A push service that does not answer within this time is given up on for this message. */
const PUSH_TIMEOUT_MS = 10_000;

const VAPID_PUBLIC_KEY = 'vapid_public_key';
const VAPID_PRIVATE_KEY = 'vapid_private_key';

interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

export interface PushSenderOptions {
  db: Db;
  config: Pick<Config, 'vapid' | 'vapidSubject'>;
  log: { warn(obj: object, msg: string): void };
  /** How the request reaches the push service (tests may pass their own); default: fetch. */
  fetch?: typeof fetch;
}

/**
 * The VAPID key pair: the configured one, else a pair made by whichever process needs it
 * first and stored in `impostazioni` (insert … on conflict do nothing, then read: every
 * process on the database uses the same pair, whoever won the race).
 */
async function storedVapidKeys(db: Db): Promise<VapidKeys> {
  const made = (await loadWebPush()).generateVAPIDKeys();
  await db
    .insert(impostazioni)
    .values([
      { chiave: VAPID_PUBLIC_KEY, valore: made.publicKey },
      { chiave: VAPID_PRIVATE_KEY, valore: made.privateKey },
    ])
    // Both rows in one statement: a pair is never half written; a process that loses the
    // race inserts neither row and reads the winner's pair.
    .onConflictDoNothing();
  const rows = await db
    .select({ chiave: impostazioni.chiave, valore: impostazioni.valore })
    .from(impostazioni)
    .where(inArray(impostazioni.chiave, [VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY]));
  const value = (key: string) => rows.find((r) => r.chiave === key)?.valore;
  const publicKey = value(VAPID_PUBLIC_KEY);
  const privateKey = value(VAPID_PRIVATE_KEY);
  if (!publicKey || !privateKey) throw new Error('web push: VAPID key pair missing');
  return { publicKey, privateKey };
}

/** web-push, loaded by the first push or key pair, not at start (issue 33). */
type WebPush = typeof webPushModuleType;
let webPushModule: Promise<WebPush> | undefined;
// A CommonJS package: its exports are the ESM namespace's `default`.
const loadWebPush = () => (webPushModule ??= import('web-push').then((m) => (m as unknown as { default: WebPush }).default));

/** The host of a push endpoint: what a log line may say of it (the path is the subscription's secret). */
function endpointHost(endpoint: string): string {
  try {
    return new URL(endpoint).host;
  } catch {
    return 'invalid';
  }
}

export function createPushSender(options: PushSenderOptions): PushSender {
  const { db, config, log } = options;
  const doFetch = options.fetch ?? fetch;
  let keys: Promise<VapidKeys> | undefined;
  const vapidKeys = (): Promise<VapidKeys> => {
    if (config.vapid) return Promise.resolve(config.vapid);
    keys ??= storedVapidKeys(db).catch((err: unknown) => {
      keys = undefined;
      throw err;
    });
    return keys;
  };

  async function deliver(subscription: typeof pushSubscriptions.$inferSelect, message: string, vapid: VapidKeys) {
    const request = (await loadWebPush()).generateRequestDetails(
      { endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } },
      message,
      {
        vapidDetails: { subject: config.vapidSubject, publicKey: vapid.publicKey, privateKey: vapid.privateKey },
        TTL: PUSH_TTL_SECONDS,
        contentEncoding: 'aes128gcm',
        urgency: 'normal',
      },
    );
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.headers)) headers[name] = String(value);
    const response = await doFetch(request.endpoint, {
      method: request.method,
      headers,
      body: request.body ? new Uint8Array(request.body) : undefined,
      redirect: 'error',
      signal: AbortSignal.timeout(PUSH_TIMEOUT_MS),
    });
    // The answer's body is of no use (and must be read or dropped to free the connection).
    await response.body?.cancel();
    if (response.status === 404 || response.status === 410) {
      // Gone: the browser unsubscribed or the subscription expired. Deleted only if it is still
      // the same row (the browser may have subscribed again meanwhile with new keys).
      await db
        .delete(pushSubscriptions)
        .where(and(eq(pushSubscriptions.id, subscription.id), eq(pushSubscriptions.p256dh, subscription.p256dh)));
      return;
    }
    if (!response.ok) {
      log.warn({ pushService: endpointHost(subscription.endpoint), status: response.status }, 'notifica push rifiutata');
    }
  }

  return {
    async publicKey() {
      return (await vapidKeys()).publicKey;
    },
    async send(userId, payload) {
      const subscriptions = await db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, userId));
      if (subscriptions.length === 0) return;
      const vapid = await vapidKeys();
      const message = JSON.stringify(payload);
      const outcomes = await Promise.allSettled(subscriptions.map((s) => deliver(s, message, vapid)));
      outcomes.forEach((outcome, i) => {
        if (outcome.status === 'rejected') {
          const reason = outcome.reason as { name?: unknown };
          log.warn(
            { pushService: endpointHost(subscriptions[i]!.endpoint), reason: typeof reason?.name === 'string' ? reason.name : 'Error' },
            'notifica push non consegnata',
          );
        }
      });
    },
  };
}
