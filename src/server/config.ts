import path from 'node:path';
import { z } from 'zod';

const booleanFromEnv = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', 'si', 'sì'], {
    error: 'deve essere true o false',
  })
  .transform((v) => ['true', '1', 'yes', 'si', 'sì'].includes(v));

function isValidTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('it-IT', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/** TTLock's API for accounts outside mainland China (its documentation's `euapi` host). */
export const TTLOCK_EU_API_URL = 'https://euapi.ttlock.com';

/** A secret sent in clear only to this machine (tests' fakes); anywhere else over https. */
function httpsOrLoopback(value: string): boolean {
  // Not a URL at all: z.url() has said so already (the refinement still runs).
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  return url.protocol === 'https:' || ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
}

const OIDC_CREDENTIALS = ['OIDC_ISSUER_URL', 'OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET'] as const;

const TTLOCK_CREDENTIALS = ['TTLOCK_CLIENT_ID', 'TTLOCK_CLIENT_SECRET', 'TTLOCK_USERNAME', 'TTLOCK_PASSWORD'] as const;

const emptyToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const optional = <T extends z.ZodType>(schema: T) => z.preprocess(emptyToUndefined, schema.optional());

const envSchema = z.object({
  NODE_ENV: optional(z.enum(['development', 'production', 'test'])),
  PORT: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(65535).default(3000)),
  HOST: z.preprocess(emptyToUndefined, z.string().default('0.0.0.0')),
  DATABASE_URL: optional(
    z.string().regex(/^postgres(ql)?:\/\//, 'deve essere un URL postgres:// o postgresql://'),
  ),
  // Database connections of this process, and how long / how many requests may queue for one
  // before the answer is 503 (decision 023).
  DATABASE_POOL_MAX: z.preprocess(emptyToUndefined, z.coerce.number().int().min(2).max(500).default(10)),
  DATABASE_POOL_WAIT_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(50).max(60_000).default(5_000)),
  DATABASE_POOL_QUEUE_MAX: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(100_000).default(1_000)),
  // How long a request waits for a database that is away (a restart) before its 503 (decision 038).
  DATABASE_OUTAGE_WAIT_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(60_000).default(3_000)),
  DATA_DIR: z.preprocess(emptyToUndefined, z.string().default('./data')),
  // The nightly backup's folder (decision 033): absolute, or relative to the working folder like
  // DATA_DIR; unset = no scheduled backup. BACKUP_KEEP of its files are kept (the newest).
  BACKUP_DIR: optional(z.string().refine((v) => !v.includes('\0'), 'percorso non valido')),
  BACKUP_KEEP: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1, 'almeno 1').max(3650).default(14)),
  // The embedded cluster's continuous archive (issue 50, decision 056): write-ahead log and base
  // backups, for `db restore --at`. Absolute, or relative to the working folder; default
  // DATA_DIR/archive. Not with DATABASE_URL: there the provider keeps the log.
  WAL_ARCHIVE_DIR: optional(z.string().refine((v) => !v.includes('\0'), 'percorso non valido')),
  WAL_RETENTION_DAYS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1, 'almeno 1').max(3650).default(7)),
  WAL_ARCHIVE_TIMEOUT_SECONDS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(10, 'almeno 10').max(3600).default(60)),
  PUBLIC_URL: optional(z.url({ protocol: /^https?$/, error: 'deve essere un URL http(s)' })),
  ADMIN_EMAIL: optional(z.email({ error: 'deve essere un indirizzo email' })),
  ADMIN_PASSWORD: optional(z.string().min(6, 'almeno 6 caratteri').max(128, 'al massimo 128 caratteri')),
  SEED_DEMO: optional(booleanFromEnv),
  SMTP_URL: optional(z.string().regex(/^smtps?:\/\//, 'deve essere un URL smtp:// o smtps://')),
  MAIL_FROM: z.preprocess(emptyToUndefined, z.string().default('BiciElis <noreply@localhost>')),
  REPORT_EMAIL: optional(z.email({ error: 'deve essere un indirizzo email' })),
  // The college's language (issue 36): what is sent to no account (the report to REPORT_EMAIL) is written in it.
  APP_LANG: z.preprocess(emptyToUndefined, z.enum(['it', 'en'], { error: 'deve essere it o en' }).default('it')),
  RESIDENT_EMAIL_DOMAIN: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^[a-z0-9.-]+\.[a-z]{2,}$/i, 'deve essere un dominio, ad esempio elis.org')
      .default('elis.org'),
  ),
  // The name of the first sede, made by migration 0024 (issue 47).
  SEDE_PREDEFINITA: z.preprocess(emptyToUndefined, z.string().trim().min(1).max(80, 'al massimo 80 caratteri').default('Sede principale')),
  RESIDENT_INITIAL_PASSWORD: optional(z.string().min(6, 'almeno 6 caratteri').max(128)),
  STRIPE_SECRET_KEY: optional(z.string().startsWith('sk_', 'deve iniziare con sk_')),
  STRIPE_PUBLISHABLE_KEY: optional(z.string().startsWith('pk_', 'deve iniziare con pk_')),
  STRIPE_WEBHOOK_SECRET: optional(z.string().startsWith('whsec_', 'deve iniziare con whsec_')),
  STRIPE_API_URL: optional(z.url()),
  // Smart locks (issue 34, decision 043): the simulated provider, or TTLock's cloud API.
  LOCK_PROVIDER: z.preprocess(
    emptyToUndefined,
    z.enum(['simulated', 'ttlock'], { error: 'deve essere simulated o ttlock' }).default('simulated'),
  ),
  TTLOCK_CLIENT_ID: optional(z.string().regex(/^[\x21-\x7e]{1,200}$/, 'deve essere il clientId dell’applicazione TTLock, senza spazi')),
  TTLOCK_CLIENT_SECRET: optional(z.string().regex(/^[\x21-\x7e]{1,200}$/, 'deve essere il clientSecret dell’applicazione TTLock, senza spazi')),
  TTLOCK_USERNAME: optional(z.string().max(200, 'al massimo 200 caratteri')),
  TTLOCK_PASSWORD: optional(z.string().max(200, 'al massimo 200 caratteri')),
  TTLOCK_API_URL: z.preprocess(
    emptyToUndefined,
    z
      .url({ protocol: /^https?$/, error: 'deve essere un URL http(s)' })
      .refine(httpsOrLoopback, 'deve essere https:// (http:// solo verso 127.0.0.1 o localhost)')
      .default(TTLOCK_EU_API_URL),
  ),
  // Sign-in with the college's account (issue 49): an OpenID Connect provider. All three of
  // issuer, client id and secret, or none; an http:// issuer only on this machine (tests, trials).
  OIDC_ISSUER_URL: optional(
    z
      .url({ protocol: /^https?$/, error: 'deve essere un URL https://' })
      .refine(httpsOrLoopback, 'deve essere https:// (http:// solo verso localhost, 127.0.0.1 o ::1)'),
  ),
  OIDC_CLIENT_ID: optional(z.string().regex(/^[\x21-\x7e]{1,500}$/, 'deve essere l’identificativo del client, senza spazi')),
  OIDC_CLIENT_SECRET: optional(z.string().regex(/^[\x21-\x7e]{1,2000}$/, 'deve essere il segreto del client, senza spazi')),
  // The button's words on /login, as is in every language; unset = the catalogue's own.
  OIDC_LABEL: optional(z.string().trim().min(1).max(80, 'al massimo 80 caratteri')),
  TZ_APP: z.preprocess(
    emptyToUndefined,
    z.string().refine(isValidTimeZone, 'fuso orario IANA non valido').default('Europe/Rome'),
  ),
  BOOKING_HORIZON_DAYS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(365).default(30)),
  WAITLIST_OFFER_MINUTES: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(1440).default(15)),
  PAYMENT_HOLD_MINUTES: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(1440).default(30)),
  NO_SHOW_MINUTES: z.preprocess(emptyToUndefined, z.coerce.number().int().min(5).max(240).default(30)),
  RETENTION_MONTHS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(120).default(24)),
  TRUST_PROXY: optional(booleanFromEnv),
  // Web push (decision 022): the VAPID key pair as `npx web-push generate-vapid-keys` prints it.
  VAPID_PUBLIC_KEY: optional(
    z.string().regex(/^[A-Za-z0-9_-]{87}$/, 'deve essere una chiave pubblica VAPID (65 byte in base64url, 87 caratteri)'),
  ),
  VAPID_PRIVATE_KEY: optional(
    z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'deve essere una chiave privata VAPID (32 byte in base64url, 43 caratteri)'),
  ),
  VAPID_SUBJECT: optional(
    z.string().regex(/^(?:mailto:[^\s@]+@[^\s@]+|https:\/\/\S+)$/, 'deve essere mailto:indirizzo oppure un URL https://'),
  ),
  // Issue 23 (decision 030): admins must have a second factor before any admin route works.
  ADMIN_2FA_REQUIRED: optional(booleanFromEnv),
  // The key that encrypts the TOTP secrets (and keys the recovery codes' hashes): 32 bytes as
  // 64 hex characters or base64. Absent: one made once in DATA_DIR (decision 030).
  TOTP_ENCRYPTION_KEY: optional(
    z
      .string()
      .regex(/^(?:[0-9a-fA-F]{64}|[A-Za-z0-9+/_-]{43}=?)$/, 'deve essere una chiave di 32 byte: 64 caratteri esadecimali o base64'),
  ),
  // The privacy notice at /privacy (issue 23): who the controller is and how to reach them.
  PRIVACY_TITOLARE: z.preprocess(emptyToUndefined, z.string().max(200, 'al massimo 200 caratteri').default('Collegio ELIS')),
  PRIVACY_CONTATTO: z.preprocess(emptyToUndefined, z.string().max(200, 'al massimo 200 caratteri').optional()),
  // Who may scrape GET /metrics from another machine, as `Authorization: Bearer <token>`
  // (decision 032); unset = only from this machine. Never logged.
  METRICS_TOKEN: optional(
    z
      .string()
      .regex(/^[\x21-\x7e]{32,256}$/, 'deve essere un token di almeno 32 caratteri stampabili, senza spazi (ad esempio openssl rand -hex 32)'),
  ),
  // On SIGTERM, how long the process keeps serving (with /api/ready at 503) before it closes its
  // port, so that a load balancer polling /api/ready takes it out first (decision 032).
  DRAIN_DELAY_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(60_000).default(0)),
  // Log lines: json (one JSON object a line), pretty (readable, for a terminal); unset = pretty
  // when stdout is a terminal, json otherwise (pipes, files, systemd, CI).
  LOG_FORMAT: optional(z.enum(['json', 'pretty'], { error: 'deve essere json o pretty' })),
  LOG_LEVEL: z.preprocess(
    emptyToUndefined,
    z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  ),
});

export type Config = ReturnType<typeof loadConfig>;

/** Every environment variable the configuration reads (docs/OPERATING.md's test checks its examples against it). */
export const CONFIG_VARIABLES: readonly string[] = Object.keys(envSchema.shape);

function decodeKey(value: string): Buffer {
  return /^[0-9a-fA-F]{64}$/.test(value) ? Buffer.from(value, 'hex') : Buffer.from(value.replace(/=$/, ''), 'base64url');
}

export class ConfigError extends Error {
  constructor(public readonly issues: string[]) {
    super(`Configurazione non valida:\n${issues.map((i) => `  - ${i}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** The college's OpenID Connect provider (issue 49): all three of issuer, client id and secret, or none. */
function oidcSettings(e: z.output<typeof envSchema>) {
  const missing = OIDC_CREDENTIALS.filter((name) => e[name] === undefined);
  if (missing.length > 0 && missing.length < OIDC_CREDENTIALS.length) {
    throw new ConfigError([`${OIDC_CREDENTIALS.join(', ')}: vanno impostate tutte e tre o nessuna (manca ${missing.join(', ')})`]);
  }
  return e.OIDC_ISSUER_URL && e.OIDC_CLIENT_ID && e.OIDC_CLIENT_SECRET
    ? { issuerUrl: e.OIDC_ISSUER_URL, clientId: e.OIDC_CLIENT_ID, clientSecret: e.OIDC_CLIENT_SECRET, label: e.OIDC_LABEL ?? null }
    : undefined;
}

/**
 * The embedded cluster's archive (decision 056); none with DATABASE_URL, where WAL_ARCHIVE_DIR
 * is refused. `timeoutSeconds`: PostgreSQL's `archive_timeout`.
 */
function walArchiveSettings(e: z.output<typeof envSchema>, dataDir: string) {
  if (e.DATABASE_URL) {
    if (e.WAL_ARCHIVE_DIR) {
      throw new ConfigError([
        'WAL_ARCHIVE_DIR: impostata, ma con DATABASE_URL l’archivio del log è compito del fornitore del database (docs/OPERATING.md): svuotala',
      ]);
    }
    return undefined;
  }
  return {
    dir: path.resolve(e.WAL_ARCHIVE_DIR ?? path.join(dataDir, 'archive')),
    retentionDays: e.WAL_RETENTION_DAYS,
    timeoutSeconds: e.WAL_ARCHIVE_TIMEOUT_SECONDS,
  };
}

/** Parses and validates the environment. Throws ConfigError naming each bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env) {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => `${issue.path.join('.') || '(ambiente)'}: ${issue.message}`),
    );
  }
  const e = parsed.data;
  const stripeKeys = [e.STRIPE_SECRET_KEY, e.STRIPE_PUBLISHABLE_KEY, e.STRIPE_WEBHOOK_SECRET];
  const stripeSet = stripeKeys.filter(Boolean).length;
  if (stripeSet > 0 && stripeSet < 3) {
    throw new ConfigError([
      'STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY, STRIPE_WEBHOOK_SECRET: vanno impostate tutte e tre o nessuna',
    ]);
  }
  const ttlockSet = TTLOCK_CREDENTIALS.filter((name) => e[name] !== undefined);
  if (e.LOCK_PROVIDER === 'ttlock' && ttlockSet.length < TTLOCK_CREDENTIALS.length) {
    const missing = TTLOCK_CREDENTIALS.filter((name) => e[name] === undefined);
    throw new ConfigError([
      `LOCK_PROVIDER=ttlock: mancano ${missing.join(', ')} (clientId e clientSecret dell’applicazione TTLock, account e password dell’app TTLock)`,
    ]);
  }
  if (e.LOCK_PROVIDER !== 'ttlock' && ttlockSet.length > 0) {
    throw new ConfigError([`${ttlockSet.join(', ')}: impostate, ma LOCK_PROVIDER non è ttlock (imposta LOCK_PROVIDER=ttlock, oppure svuotale)`]);
  }
  if (Boolean(e.ADMIN_EMAIL) !== Boolean(e.ADMIN_PASSWORD)) {
    throw new ConfigError(['ADMIN_EMAIL, ADMIN_PASSWORD: vanno impostate entrambe o nessuna']);
  }
  if (Boolean(e.VAPID_PUBLIC_KEY) !== Boolean(e.VAPID_PRIVATE_KEY)) {
    throw new ConfigError(['VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY: vanno impostate entrambe o nessuna']);
  }
  const dataDir = path.resolve(e.DATA_DIR);
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');
  const embedded = !e.DATABASE_URL;
  return {
    env: e.NODE_ENV ?? 'production',
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    pool: { max: e.DATABASE_POOL_MAX, waitMs: e.DATABASE_POOL_WAIT_MS, queueMax: e.DATABASE_POOL_QUEUE_MAX, outageWaitMs: e.DATABASE_OUTAGE_WAIT_MS },
    embeddedDatabase: embedded,
    dataDir,
    /** The nightly backup (job `db-backup`, decision 033): absent without BACKUP_DIR. */
    backup: e.BACKUP_DIR ? { dir: path.resolve(e.BACKUP_DIR), keep: e.BACKUP_KEEP } : undefined,
    /** The embedded cluster's log archive and base backups (decision 056); absent with DATABASE_URL. */
    walArchive: walArchiveSettings(e, dataDir),
    publicUrl,
    publicOrigin: new URL(publicUrl).origin,
    secureCookies: publicUrl.startsWith('https://'),
    admin: e.ADMIN_EMAIL && e.ADMIN_PASSWORD ? { email: e.ADMIN_EMAIL, password: e.ADMIN_PASSWORD } : undefined,
    seedDemo: e.SEED_DEMO ?? embedded,
    smtpUrl: e.SMTP_URL,
    isSmtpConfigured: Boolean(e.SMTP_URL),
    mailFrom: e.MAIL_FROM,
    reportEmail: e.REPORT_EMAIL,
    /** The college's language (APP_LANG): the nightly report stored and sent to REPORT_EMAIL without an account (issue 36). */
    appLang: e.APP_LANG,
    residentEmailDomain: e.RESIDENT_EMAIL_DOMAIN.toLowerCase(),
    residentInitialPassword: e.RESIDENT_INITIAL_PASSWORD,
    /** The first sede's name (SEDE_PREDEFINITA), given to it when the migration makes it (issue 47). */
    sedePredefinita: e.SEDE_PREDEFINITA,
    stripe:
      e.STRIPE_SECRET_KEY && e.STRIPE_PUBLISHABLE_KEY && e.STRIPE_WEBHOOK_SECRET
        ? {
            secretKey: e.STRIPE_SECRET_KEY,
            publishableKey: e.STRIPE_PUBLISHABLE_KEY,
            webhookSecret: e.STRIPE_WEBHOOK_SECRET,
            apiUrl: e.STRIPE_API_URL,
          }
        : undefined,
    /** The smart locks' provider (decision 043): TTLock with its credentials, else the simulated one. */
    locks:
      e.LOCK_PROVIDER === 'ttlock' && e.TTLOCK_CLIENT_ID && e.TTLOCK_CLIENT_SECRET && e.TTLOCK_USERNAME && e.TTLOCK_PASSWORD
        ? {
            provider: 'ttlock' as const,
            ttlock: {
              apiUrl: e.TTLOCK_API_URL,
              clientId: e.TTLOCK_CLIENT_ID,
              clientSecret: e.TTLOCK_CLIENT_SECRET,
              username: e.TTLOCK_USERNAME,
              password: e.TTLOCK_PASSWORD,
            },
          }
        : { provider: 'simulated' as const },
    /**
     * The college's OpenID Connect provider (issue 49): absent when not configured. `label`: the
     * login button's words as configured (OIDC_LABEL), null = the catalogue's default.
     */
    oidc: oidcSettings(e),
    timeZone: e.TZ_APP,
    bookingHorizonDays: e.BOOKING_HORIZON_DAYS,
    waitlistOfferMinutes: e.WAITLIST_OFFER_MINUTES,
    paymentHoldMinutes: e.PAYMENT_HOLD_MINUTES,
    noShowMinutes: e.NO_SHOW_MINUTES,
    /** Months after which bookings, damage reports and notices are anonymised: a first-start default, then /admin → Regole (decision 029). */
    retentionMonths: e.RETENTION_MONTHS,
    trustProxy: e.TRUST_PROXY ?? false,
    /** Configured VAPID key pair; absent = one made once and kept in `impostazioni` (modules/notifications/push.ts). */
    vapid:
      e.VAPID_PUBLIC_KEY && e.VAPID_PRIVATE_KEY ? { publicKey: e.VAPID_PUBLIC_KEY, privateKey: e.VAPID_PRIVATE_KEY } : undefined,
    /** Who runs the push sender, for the push services: VAPID_SUBJECT, else mailto: the MAIL_FROM address. */
    vapidSubject: e.VAPID_SUBJECT ?? `mailto:${/<([^>]+)>/.exec(e.MAIL_FROM)?.[1] ?? e.MAIL_FROM.trim()}`,
    /** Decision 030: with it, an admin without a second factor is sent to enrol (403 on every admin route). */
    admin2faRequired: e.ADMIN_2FA_REQUIRED ?? false,
    /** The configured key of the TOTP secrets, 32 bytes; absent = the key file in DATA_DIR (two-factor/secret-box.ts). */
    totpEncryptionKey: e.TOTP_ENCRYPTION_KEY ? decodeKey(e.TOTP_ENCRYPTION_KEY) : undefined,
    /** The privacy notice's controller and contact (/privacy); the contact defaults to MAIL_FROM's address. */
    privacy: {
      titolare: e.PRIVACY_TITOLARE.trim(),
      contatto: (e.PRIVACY_CONTATTO ?? /<([^>]+)>/.exec(e.MAIL_FROM)?.[1] ?? e.MAIL_FROM).trim(),
    },
    logLevel: e.LOG_LEVEL,
    /** LOG_FORMAT; undefined = decided by whether stdout is a terminal (logger.ts). */
    logFormat: e.LOG_FORMAT,
    /** DRAIN_DELAY_MS: the stop's first phase, /api/ready at 503 with the port still open. */
    drainDelayMs: e.DRAIN_DELAY_MS,
    /** METRICS_TOKEN: the bearer token of GET /metrics from another machine; undefined = loopback only. */
    metricsToken: e.METRICS_TOKEN,
  };
}
