import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { users } from '../users/tables.js';
import type { Mailer, MailMessage } from '../../integrations/mailer.js';
import type { Lingua } from '../../../shared/i18n/index.js';

/** What a web-push notification carries (the installed app shows it, and opens `url`). */
export interface PushPayload {
  title: string;
  body: string;
  url: string;
  /** The language it is written in (issue 36): the worker marks the notification with it (push-sw.js). */
  lang?: Lingua;
}

/** Web push, when configured (src/server/modules/notifications/push.ts): every subscription of a user. */
export interface PushSender {
  send(userId: number, payload: PushPayload): Promise<void>;
}

export interface NotifyDeps {
  db: Db;
  mailer: Mailer;
  push?: PushSender | undefined;
  log: { error(obj: object, msg: string): void };
}

export interface UserNotice {
  subject: string;
  text: string;
  html?: string;
  push: PushPayload;
}

/** A notice made in its reader's language (the account's `lingua`, read here with the address). */
export type NoticeInLingua = (lingua: Lingua) => UserNotice;

/**
 * Tells a user something by email and, where the user's browsers subscribed, by web push, in
 * the user's language. Never throws: a failed delivery is logged (the notice was claimed once
 * already, and one lost email must not stop the others). Returns whether the email left.
 */
export async function notifyUser(deps: NotifyDeps, userId: number, make: NoticeInLingua): Promise<boolean> {
  const [user] = await deps.db
    .select({ email: users.email, lingua: users.lingua })
    .from(users)
    .where(and(eq(users.id, userId), eq(users.attiva, true)));
  if (!user) return false;
  const notice = make(user.lingua);
  const message: MailMessage = { to: user.email, subject: notice.subject, text: notice.text };
  if (notice.html) message.html = notice.html;
  let sent = false;
  try {
    await deps.mailer.send(message);
    sent = true;
  } catch (err) {
    deps.log.error({ err, userId, subject: notice.subject }, 'notice email not sent');
  }
  if (deps.push) {
    try {
      await deps.push.send(userId, { ...notice.push, lang: user.lingua });
    } catch (err) {
      deps.log.error({ err, userId }, 'push notice not sent');
    }
  }
  return sent;
}

/** The email addresses of every active admin (for the damage reports and the overdue list). */
export async function activeAdminEmails(db: Db): Promise<string[]> {
  return (await activeAdmins(db)).map((r) => r.email);
}

/** Every active admin's address and language: the admins' emails are written in each one's. */
export async function activeAdmins(db: Db): Promise<{ email: string; lingua: Lingua }[]> {
  return db
    .select({ email: users.email, lingua: users.lingua })
    .from(users)
    .where(and(eq(users.ruolo, 'admin'), eq(users.attiva, true)))
    .orderBy(users.id);
}

/** The language of the account with this email address, if there is one (addresses are stored lower-case). */
export async function linguaOfEmail(db: Db, email: string): Promise<Lingua | undefined> {
  const [row] = await db
    .select({ lingua: users.lingua })
    .from(users)
    .where(eq(users.email, email.trim().toLowerCase()));
  return row?.lingua;
}
