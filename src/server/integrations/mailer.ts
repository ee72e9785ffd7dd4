import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type nodemailerModule from 'nodemailer';
import type { Transporter } from 'nodemailer';
import type { Lingua } from '../../shared/i18n/index.js';
import { tFor } from '../../shared/i18n/all.js';
import { forgetInOutbox } from './outbox-forget.js';

/** One email. `text` is always sent; `html` is the optional rich alternative. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  attachments?: { filename: string; content: Buffer; contentType?: string }[];
}

export interface MailResult {
  messageId: string;
  /** Where the message went: the SMTP server, or the `.eml` file of the outbox. */
  delivery: { kind: 'smtp' } | { kind: 'outbox'; file: string };
}

export interface Mailer {
  /** Delivers now; rejects when delivery fails (for callers that record failures, e.g. reports). */
  send(message: MailMessage): Promise<MailResult>;
  /**
   * Delivers without making the caller wait (account emails): a failure is logged, never
   * thrown, so it does not break the request that asked for it.
   */
  sendInBackground(message: MailMessage): void;
  /** Resolves once every background delivery started so far has finished. */
  idle(): Promise<void>;
  /** Waits for background deliveries, then releases the transport. */
  close(): Promise<void>;
  /**
   * The file outbox only: deletes the stored emails that name any of `terms` (an account's
   * deletion, decision 029); returns how many. Absent for SMTP: what left is not ours.
   */
  forget?(terms: readonly string[]): Promise<number>;
}

/** The few logger methods the mailer needs (pino and Fastify's logger both fit). */
export interface MailLogger {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface MailerOptions {
  /** `smtp://user:pass@host:587` or `smtps://…`; unset = write `.eml` files to `outboxDir`. */
  smtpUrl?: string | undefined;
  from: string;
  outboxDir: string;
  logger: MailLogger;
  /** Told of each delivery's outcome (the metrics' `bicielis_emails_total`, decision 032). */
  onDelivery?: ((outcome: 'sent' | 'failed') => void) | undefined;
}

/** The mailer of the app: SMTP when SMTP_URL is set, otherwise the file outbox. */
export function createMailer(options: MailerOptions): Mailer {
  return options.smtpUrl ? smtpMailer(options, options.smtpUrl) : outboxMailer(options);
}

/** The mailer the configuration asks for (SMTP_URL, MAIL_FROM, DATA_DIR/outbox). */
export function mailerFromConfig(
  config: { smtpUrl?: string | undefined; mailFrom: string; dataDir: string },
  logger: MailLogger,
  metrics?: { emails: { inc(labels: { outcome: 'sent' | 'failed' }): void } },
): Mailer {
  return createMailer({
    smtpUrl: config.smtpUrl,
    from: config.mailFrom,
    outboxDir: path.join(config.dataDir, 'outbox'),
    logger,
    onDelivery: metrics ? (outcome) => metrics.emails.inc({ outcome }) : undefined,
  });
}

/** `send` with each outcome reported to `onDelivery`. */
function counted(send: (message: MailMessage) => Promise<MailResult>, onDelivery: MailerOptions['onDelivery']) {
  if (!onDelivery) return send;
  return async (message: MailMessage) => {
    try {
      const result = await send(message);
      onDelivery('sent');
      return result;
    } catch (err) {
      onDelivery('failed');
      throw err;
    }
  };
}

/**
 * A transport made by the first email: nodemailer (about 3 MB of heap) is loaded then, not at
 * start, as most requests send no email (issue 33). `close` releases it if it was made.
 */
function lazyTransport(make: (nodemailer: typeof nodemailerModule) => Transporter) {
  let transport: Promise<Transporter> | undefined;
  return {
    get: () => (transport ??= import('nodemailer').then((m) => make(m.default))),
    close: () => void transport?.then((t) => t.close(), () => undefined),
  };
}

function smtpMailer(options: MailerOptions, smtpUrl: string): Mailer {
  const transport = lazyTransport((nodemailer) =>
    nodemailer.createTransport(
      { url: smtpUrl, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 },
      { from: options.from },
    ),
  );
  return withBackground(options.logger, counted(async (message) => {
    const info = await (await transport.get()).sendMail(message);
    options.logger.info({ subject: message.subject, messageId: info.messageId }, 'email sent');
    return { messageId: info.messageId, delivery: { kind: 'smtp' } as const };
  }, options.onDelivery), transport.close);
}

function outboxMailer(options: MailerOptions): Mailer {
  const transport = lazyTransport((nodemailer) =>
    nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' }, { from: options.from }),
  );
  const mailer = withBackground(options.logger, counted(async (message) => {
    const info = await (await transport.get()).sendMail(message);
    await fs.mkdir(options.outboxDir, { recursive: true });
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const file = path.join(options.outboxDir, `${stamp}-${randomBytes(4).toString('hex')}.eml`);
    await fs.writeFile(file, info.message as Buffer, { mode: 0o600 });
    options.logger.info(
      { subject: message.subject, file },
      'SMTP_URL not set: email written to the outbox',
    );
    return { messageId: info.messageId, delivery: { kind: 'outbox' as const, file } };
  }, options.onDelivery), transport.close);
  return {
    ...mailer,
    async forget(terms) {
      // Emails still being written first, so none of them escapes the search.
      await mailer.idle();
      return forgetInOutbox(options.outboxDir, terms);
    },
  };
}

function withBackground(
  logger: MailLogger,
  send: (message: MailMessage) => Promise<MailResult>,
  closeTransport: () => void,
): Mailer {
  const pending = new Set<Promise<unknown>>();
  const idle = async () => {
    while (pending.size > 0) await Promise.allSettled([...pending]);
  };
  return {
    send,
    sendInBackground(message) {
      const task = send(message)
        .catch((err: unknown) => {
          logger.error({ err, subject: message.subject }, 'email not sent');
        })
        .finally(() => pending.delete(task));
      pending.add(task);
    },
    idle,
    async close() {
      await idle();
      closeTransport();
    },
  };
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for HTML: an email's HTML part, the privacy page. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
}

/** A plain, readable HTML email around already-escaped body HTML, in the reader's language. */
export function emailLayout(title: string, bodyHtml: string, lingua: Lingua = 'it'): string {
  return `<!doctype html>
<html lang="${lingua}">
<head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>
<body style="margin:0;padding:24px;background:#f4f6f8;font-family:Arial,Helvetica,sans-serif;color:#1f2933;">
<div style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:8px;padding:24px;">
<h1 style="font-size:20px;margin:0 0 16px;color:#0f5132;">BiciElis</h1>
${bodyHtml}
<p style="font-size:12px;color:#6b7280;margin-top:24px;">${tFor(lingua)('emailNotices.layout.footer')}</p>
</div>
</body>
</html>`;
}
