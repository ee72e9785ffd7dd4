import { sql } from 'drizzle-orm';
import { DAMAGE_CATEGORIES } from '../../shared/damage.js';
import {
  type AnyPgColumn,
  bigint,
  bigserial,
  boolean,
  check,
  customType,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

const bytea = customType<{ data: Buffer; driverData: Buffer }>({
  dataType: () => 'bytea',
});

const tstz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const createdAt = () => tstz('created_at').notNull().defaultNow();
const updatedAt = () => tstz('updated_at').notNull().defaultNow();

/** Resident codes (sigle). Stored upper-case so that comparison is case-insensitive. */
export const residenti = pgTable(
  'residenti',
  {
    id: serial('id').primaryKey(),
    sigla: text('sigla').notNull().unique(),
    nome: text('nome').notNull(),
    cognome: text('cognome').notNull(),
    corsoDiStudi: text('corso_di_studi'),
    annoCorso: integer('anno_corso'),
    attivo: boolean('attivo').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('residenti_sigla_upper', sql`${t.sigla} = upper(${t.sigla}) and length(${t.sigla}) between 1 and 32`),
    check('residenti_anno_corso_range', sql`${t.annoCorso} is null or ${t.annoCorso} between 1 and 10`),
  ],
);

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    nome: text('nome').notNull(),
    cognome: text('cognome').notNull(),
    email: text('email').notNull().unique(),
    passwordHash: text('password_hash').notNull(),
    ruolo: text('ruolo', { enum: ['admin', 'user'] }).notNull().default('user'),
    isResidente: boolean('is_residente').notNull().default(false),
    siglaResidente: text('sigla_residente')
      .unique()
      .references(() => residenti.sigla, { onUpdate: 'cascade', onDelete: 'restrict' }),
    attiva: boolean('attiva').notNull().default(true),
    mustChangePassword: boolean('must_change_password').notNull().default(false),
    tempPasswordHash: text('temp_password_hash'),
    tempPasswordExpiresAt: tstz('temp_password_expires_at'),
    /**
     * When an admin last lifted this user's no-show suspension (issue 20): no-shows before it
     * no longer count. The suspension itself is derived from the no-shows at read time.
     */
    sospensioneRevocataAt: tstz('sospensione_revocata_at'),
    /**
     * The second factor (issue 23, decision 030): the TOTP secret encrypted with the key of
     * the configuration (never in clear), when it was confirmed (null: being enrolled, or
     * none), and the last time step a code was accepted for (a code is never used twice).
     */
    totpSegreto: text('totp_segreto'),
    totpAttivoAt: tstz('totp_attivo_at'),
    totpUltimoPasso: bigint('totp_ultimo_passo', { mode: 'number' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('users_email_normalised', sql`${t.email} = lower(btrim(${t.email})) and position('@' in ${t.email}) > 1`),
    check('users_ruolo_valid', sql`${t.ruolo} in ('admin', 'user')`),
    check('users_totp_attivo_ha_segreto', sql`${t.totpAttivoAt} is null or ${t.totpSegreto} is not null`),
  ],
);

export const BIKE_STATES = ['disponibile', 'prenotata', 'manutenzione', 'fuori_servizio'] as const;

export const biciclette = pgTable(
  'biciclette',
  {
    id: serial('id').primaryKey(),
    numero: text('numero').notNull().unique(),
    modello: text('modello').notNull(),
    stato: text('stato', { enum: BIKE_STATES }).notNull().default('disponibile'),
    /**
     * True while `prenotata` was set by the booking life cycle (a booking in progress), not
     * by an admin: the life cycle turns back to `disponibile` only the bikes it marked
     * itself. Any admin change clears it (docs/decisions/014-bike-state-vs-lifecycle.md).
     */
    statoAuto: boolean('stato_auto').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('biciclette_stato_valid', sql`${t.stato} in ('disponibile', 'prenotata', 'manutenzione', 'fuori_servizio')`),
    check('biciclette_numero_not_blank', sql`length(btrim(${t.numero})) > 0`),
  ],
);

/** `offerta`: a bike held for the first in a waitlist (issue 21, decision 025); not a booking yet. */
export const BOOKING_STATES = ['attiva', 'completata', 'cancellata', 'offerta'] as const;
/** Why a booking was cancelled: by its owner, by an admin, its payment hold ran out, never picked up. */
export const CANCELLATION_REASONS = ['utente', 'admin', 'pagamento_scaduto', 'mancato_ritiro', 'chiusura', 'manutenzione'] as const;

/**
 * Bookings. `dataPrenotazione`/`orarioInizio`/`orarioFine` are what the person chose
 * (local to TZ_APP); `inizio`/`fine` are the same window as instants, used by the
 * exclusion constraint (see drizzle/0000_*.sql) and by the life-cycle job.
 */
export const prenotazioni = pgTable(
  'prenotazioni',
  {
    id: serial('id').primaryKey(),
    /**
     * Null once the booking is anonymous (issue 23, decision 029): its owner deleted their
     * account, or it passed the retention period. Only a concluded booking can be anonymous.
     */
    userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
    biciId: integer('bici_id')
      .notNull()
      .references(() => biciclette.id, { onDelete: 'restrict' }),
    dataPrenotazione: date('data_prenotazione', { mode: 'string' }).notNull(),
    orarioInizio: text('orario_inizio').notNull(),
    orarioFine: text('orario_fine').notNull(),
    inizio: tstz('inizio').notNull(),
    fine: tstz('fine').notNull(),
    destinazione: text('destinazione'),
    stato: text('stato', { enum: BOOKING_STATES }).notNull().default('attiva'),
    /**
     * Whether the user was a resident when booking: set by a trigger from users.is_residente
     * at insert (drizzle/0005_stats.sql), read by the statistics (decision 017).
     */
    residente: boolean('residente').notNull().default(false),
    /** The ride (decision 022): when the owner took the bike (`Ritirata`) and brought it back. */
    ritirataAt: tstz('ritirata_at'),
    riconsegnataAt: tstz('riconsegnata_at'),
    /** Why a `cancellata` booking was cancelled (null for bookings cancelled before issue 13). */
    motivoCancellazione: text('motivo_cancellazione', { enum: CANCELLATION_REASONS }),
    /** When each reminder / overdue notice went out: each is sent once, claimed by an UPDATE. */
    promemoriaInizioAt: tstz('promemoria_inizio_at'),
    promemoriaFineAt: tstz('promemoria_fine_at'),
    ritardoAvvisatoAt: tstz('ritardo_avvisato_at'),
    /** An offer (stato `offerta`, issue 21): its wait, until when it holds the bike, when it was sent. */
    attesaId: integer('attesa_id').references((): AnyPgColumn => attese.id, { onDelete: 'set null' }),
    offertaScadeAt: tstz('offerta_scade_at'),
    offertaAvvisataAt: tstz('offerta_avvisata_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('prenotazioni_window', sql`${t.inizio} < ${t.fine}`),
    // A bike cannot be returned before it was taken; a returned booking is completed.
    check(
      'prenotazioni_riconsegna_dopo_ritiro',
      sql`${t.riconsegnataAt} is null or (${t.ritirataAt} is not null and ${t.riconsegnataAt} >= ${t.ritirataAt} and ${t.stato} = 'completata')`,
    ),
    // Taken only while the booking was (or is) active: not for a cancelled one.
    check('prenotazioni_ritiro_non_cancellata', sql`${t.ritirataAt} is null or ${t.stato} <> 'cancellata' or ${t.motivoCancellazione} = 'admin'`),
    check(
      'prenotazioni_motivo_valid',
      sql`${t.motivoCancellazione} is null or (${t.stato} = 'cancellata' and ${t.motivoCancellazione} in ('utente', 'admin', 'pagamento_scaduto', 'mancato_ritiro', 'chiusura', 'manutenzione'))`,
    ),
    check('prenotazioni_stato_valid', sql`${t.stato} in ('attiva', 'completata', 'cancellata', 'offerta')`),
    // An anonymous booking (decision 029) is over: nobody can ride, pay or be offered it.
    check('prenotazioni_anonima_conclusa', sql`${t.userId} is not null or ${t.stato} in ('completata', 'cancellata')`),
    check(
      'prenotazioni_offerta_shape',
      sql`(${t.stato} = 'offerta') = (${t.offertaScadeAt} is not null) and (${t.stato} <> 'offerta' or ${t.attesaId} is not null)`,
    ),
    uniqueIndex('prenotazioni_one_offer_per_wait').on(t.attesaId).where(sql`${t.stato} = 'offerta'`),
    check('prenotazioni_orari_format', sql`${t.orarioInizio} ~ '^[0-2][0-9]:[0-5][0-9]$' and ${t.orarioFine} ~ '^[0-2][0-9]:[0-5][0-9]$'`),
    check('prenotazioni_destinazione_length', sql`${t.destinazione} is null or length(${t.destinazione}) <= 200`),
    // Invariant 2 of behaviour.md §3: at most one active booking per user.
    uniqueIndex('prenotazioni_one_active_per_user').on(t.userId).where(sql`${t.stato} = 'attiva'`),
    index('prenotazioni_user_idx').on(t.userId, t.createdAt),
    index('prenotazioni_active_fine_idx').on(t.fine).where(sql`${t.stato} = 'attiva'`),
    index('prenotazioni_data_idx').on(t.dataPrenotazione),
    index('prenotazioni_bici_idx').on(t.biciId, t.dataPrenotazione),
    // The statistics' no-shows of a period (stats/service.ts): a few rows a day, read by day.
    index('prenotazioni_no_show_day_idx').on(t.dataPrenotazione).where(sql`${t.motivoCancellazione} = 'mancato_ritiro'`),
    // The admin list's order (newest first: read backwards), so a page is read in index order
    // (decision 013).
    index('prenotazioni_admin_order_idx').on(t.dataPrenotazione, t.orarioInizio, t.id),
    // Invariant 1 (no overlapping active bookings of a bike) is an EXCLUDE constraint,
    // which drizzle-kit cannot express: it is written by hand in the first migration.
  ],
);

export const PAYMENT_STATES = ['pending', 'completed', 'failed', 'refunded'] as const;

export const pagamenti = pgTable(
  'pagamenti',
  {
    id: serial('id').primaryKey(),
    /**
     * Null once an admin deleted the booking: the payment stays, detached, for the
     * accounts; `bookingDate`/`bookingDeletedAt` say what reports need of the booking
     * (docs/decisions/015-payments-of-deleted-bookings.md).
     */
    prenotazioneId: integer('prenotazione_id').references(() => prenotazioni.id, { onDelete: 'set null' }),
    /** The day of the booking, copied when the booking is deleted (null while it exists). */
    bookingDate: date('booking_date', { mode: 'string' }),
    /** When the booking was deleted by an admin (null while it exists). */
    bookingDeletedAt: tstz('booking_deleted_at'),
    provider: text('provider', { enum: ['stripe', 'simulated'] }).notNull(),
    providerPaymentId: text('provider_payment_id').unique(),
    providerCheckoutId: text('provider_checkout_id').unique(),
    amount: integer('amount').notNull().default(250),
    currency: text('currency').notNull().default('eur'),
    status: text('status', { enum: PAYMENT_STATES }).notNull().default('pending'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    completedAt: tstz('completed_at'),
    refundedAt: tstz('refunded_at'),
  },
  (t) => [
    check('pagamenti_status_valid', sql`${t.status} in ('pending', 'completed', 'failed', 'refunded')`),
    check('pagamenti_amount_positive', sql`${t.amount} > 0`),
    // A payment without its booking keeps the snapshot the reports need.
    check(
      'pagamenti_detached_snapshot',
      sql`${t.prenotazioneId} is not null or (${t.bookingDate} is not null and ${t.bookingDeletedAt} is not null)`,
    ),
    // One payment row per booking; so a booking is marked completed at most once
    // (invariant 3 of behaviour.md §3).
    uniqueIndex('pagamenti_one_per_booking').on(t.prenotazioneId),
    // The life cycle looks for unpaid bookings at every read: keep that lookup tiny.
    index('pagamenti_pending_idx').on(t.prenotazioneId).where(sql`${t.status} = 'pending'`),
    check('pagamenti_provider_valid', sql`${t.provider} in ('stripe', 'simulated')`),
    // A completed payment names the provider's payment that paid it, and when; a refunded
    // one, the payment refunded and when. Status changes are limited by a trigger
    // (drizzle/0003_payments.sql): completed at most once, never back to pending.
    check(
      'pagamenti_completed_has_payment',
      sql`${t.status} <> 'completed' or (${t.providerPaymentId} is not null and ${t.completedAt} is not null)`,
    ),
    check(
      'pagamenti_refunded_has_payment',
      sql`${t.status} <> 'refunded' or (${t.providerPaymentId} is not null and ${t.refundedAt} is not null)`,
    ),
  ],
);

/** Events received from the payment provider; the primary key makes each apply once. */
export const providerEvents = pgTable('provider_events', {
  id: text('id').primaryKey(),
  provider: text('provider').notNull(),
  type: text('type').notNull(),
  payload: jsonb('payload').notNull(),
  receivedAt: tstz('received_at').notNull().defaultNow(),
});

// ---------------------------------------------------------------------------------------
// The simulated payment provider (src/server/integrations/payments/simulated-provider.ts):
// what Stripe would keep on its side, kept here when no Stripe keys are configured. Its
// rows mirror Stripe's objects, so `booking_id` is metadata, not a foreign key.
// ---------------------------------------------------------------------------------------

export const SIMULATED_INTENT_STATES = ['requires_payment_method', 'succeeded', 'canceled'] as const;

export const simulatedPaymentIntents = pgTable(
  'simulated_payment_intents',
  {
    id: text('id').primaryKey(),
    clientSecret: text('client_secret').notNull(),
    bookingId: integer('booking_id').notNull(),
    amount: integer('amount').notNull(),
    currency: text('currency').notNull(),
    status: text('status', { enum: SIMULATED_INTENT_STATES }).notNull().default('requires_payment_method'),
    /** The caller's idempotency key: the same key gives back the same intent. */
    idempotencyKey: text('idempotency_key').unique(),
    /** Code of the last declined attempt (card_declined, expired_card, …). */
    lastErrorCode: text('last_error_code'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    succeededAt: tstz('succeeded_at'),
  },
  (t) => [
    check('simulated_payment_intents_status_valid', sql`${t.status} in ('requires_payment_method', 'succeeded', 'canceled')`),
    check('simulated_payment_intents_amount_positive', sql`${t.amount} > 0`),
    check('simulated_payment_intents_succeeded_at', sql`${t.status} <> 'succeeded' or ${t.succeededAt} is not null`),
  ],
);

export const simulatedCheckoutSessions = pgTable(
  'simulated_checkout_sessions',
  {
    id: text('id').primaryKey(),
    bookingId: integer('booking_id').notNull(),
    amount: integer('amount').notNull(),
    currency: text('currency').notNull(),
    /** `expired` is not stored: an open session past `expires_at` is expired. */
    status: text('status', { enum: ['open', 'complete'] }).notNull().default('open'),
    paymentIntentId: text('payment_intent_id').references(() => simulatedPaymentIntents.id),
    successUrl: text('success_url').notNull(),
    cancelUrl: text('cancel_url').notNull(),
    expiresAt: tstz('expires_at').notNull(),
    idempotencyKey: text('idempotency_key').unique(),
    createdAt: createdAt(),
    completedAt: tstz('completed_at'),
  },
  (t) => [
    check('simulated_checkout_sessions_status_valid', sql`${t.status} in ('open', 'complete')`),
    check(
      'simulated_checkout_sessions_complete_paid',
      sql`${t.status} <> 'complete' or (${t.paymentIntentId} is not null and ${t.completedAt} is not null)`,
    ),
  ],
);

/** Refunds of the simulated provider: a payment is refunded at most once, and in full. */
export const simulatedRefunds = pgTable('simulated_refunds', {
  id: text('id').primaryKey(),
  paymentIntentId: text('payment_intent_id')
    .notNull()
    .unique()
    .references(() => simulatedPaymentIntents.id),
  amount: integer('amount').notNull(),
  idempotencyKey: text('idempotency_key').unique(),
  createdAt: createdAt(),
});

/**
 * One row: the secret the simulated provider signs its webhook events with, shared by
 * every app process on this database (created at first use; see decision 012).
 */
export const simulatedProviderSettings = pgTable(
  'simulated_provider_settings',
  {
    id: integer('id').primaryKey(),
    webhookSecret: text('webhook_secret').notNull(),
    createdAt: createdAt(),
  },
  (t) => [check('simulated_provider_settings_one_row', sql`${t.id} = 1`)],
);

export const reports = pgTable(
  'reports',
  {
    id: serial('id').primaryKey(),
    fileName: text('file_name').notNull(),
    reportDate: date('report_date', { mode: 'string' }).notNull().unique(),
    pdf: bytea('pdf').notNull(),
    fileSize: integer('file_size').notNull(),
    emailSent: boolean('email_sent').notNull().default(false),
    emailSentAt: tstz('email_sent_at'),
    emailAttempts: integer('email_attempts').notNull().default(0),
    lastEmailError: text('last_email_error'),
    createdAt: createdAt(),
  },
  (t) => [check('reports_file_size', sql`${t.fileSize} >= 0`)],
);

/** `two_factor`: the pending state after a right password of an admin with a second factor (decision 030). */
export const SESSION_KINDS = ['session', 'password_change', 'two_factor'] as const;

/**
 * Server-side sessions. The cookie carries a random token; only its SHA-256 is here.
 * `password_change` rows are the short-lived grants that allow exactly one password change.
 */
export const sessions = pgTable(
  'sessions',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: SESSION_KINDS }).notNull().default('session'),
    createdAt: createdAt(),
    lastSeenAt: tstz('last_seen_at').notNull().defaultNow(),
    expiresAt: tstz('expires_at').notNull(),
    /** The browser and system the session was opened on, in a few words ("Chrome su Android"): never the whole User-Agent. */
    dispositivo: text('dispositivo'),
  },
  (t) => [
    check('sessions_kind_valid', sql`${t.kind} in ('session', 'password_change', 'two_factor')`),
    index('sessions_user_idx').on(t.userId),
    index('sessions_expires_idx').on(t.expiresAt),
  ],
);

export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    actorId: integer('actor_id').references(() => users.id, { onDelete: 'set null' }),
    actorEmail: text('actor_email'),
    action: text('action').notNull(),
    entity: text('entity').notNull(),
    entityId: text('entity_id'),
    /**
     * The subject as the staff know it, written with the entry (issue 31): `Bici 07`, a
     * person's name, `Bici 07 per Maria Rossi`; null for the rules, closures and imports. An
     * erased person's name becomes `[dato rimosso]` (privacy/audit-redact.ts).
     */
    soggetto: text('soggetto'),
    before: jsonb('before'),
    after: jsonb('after'),
    createdAt: createdAt(),
  },
  (t) => [
    index('audit_log_created_idx').on(t.createdAt),
    index('audit_log_entity_idx').on(t.entity, t.entityId),
    // The Registro attività's filters (issue 23): by admin, by action, each newest first. The
    // actor's index also serves `on delete set null` when an admin account is deleted.
    index('audit_log_actor_idx').on(t.actorId, t.createdAt),
    index('audit_log_action_idx').on(t.action, t.createdAt),
  ],
);

/**
 * The statistics' rollup (decision 017): per booking day, one row per dimension value —
 * `kind` 'day' (key 0), 'hour' (0–23, start in TZ_APP), 'bike' (bici_id), 'res' (1 resident,
 * 0 external). Kept exact by triggers on prenotazioni and pagamenti (drizzle/0005_stats.sql),
 * so GET /api/admin/stats reads at most ~90 rows a day instead of every booking.
 */
export const statsGiornaliere = pgTable(
  'stats_giornaliere',
  {
    day: date('day', { mode: 'string' }).notNull(),
    kind: text('kind', { enum: ['day', 'hour', 'bike', 'res'] }).notNull(),
    key: integer('key').notNull(),
    rides: integer('rides').notNull().default(0),
    cancellations: integer('cancellations').notNull().default(0),
    seconds: bigint('seconds', { mode: 'number' }).notNull().default(0),
    revenueCents: bigint('revenue_cents', { mode: 'number' }).notNull().default(0),
    releasedHolds: integer('released_holds').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.kind, t.day, t.key] })],
);

/**
 * The rollup's pending changes (decision 023): the triggers of 0005, redefined by 0010, only
 * insert here (no unique key: no writer ever waits for another), and the `stats-fold` job
 * moves them into `stats_giornaliere` every minute. Reads add the rows not yet folded.
 */
export const statsDelta = pgTable(
  'stats_delta',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    day: date('day', { mode: 'string' }).notNull(),
    kind: text('kind', { enum: ['day', 'hour', 'bike', 'res'] }).notNull(),
    key: integer('key').notNull(),
    rides: integer('rides').notNull().default(0),
    cancellations: integer('cancellations').notNull().default(0),
    seconds: bigint('seconds', { mode: 'number' }).notNull().default(0),
    revenueCents: bigint('revenue_cents', { mode: 'number' }).notNull().default(0),
    releasedHolds: integer('released_holds').notNull().default(0),
  },
  (t) => [index('stats_delta_kind_day_idx').on(t.kind, t.day)],
);

export type User = typeof users.$inferSelect;
export type Bike = typeof biciclette.$inferSelect;
export type Booking = typeof prenotazioni.$inferSelect;
export type Payment = typeof pagamenti.$inferSelect;
export type Resident = typeof residenti.$inferSelect;

/**
 * Counters of the rate limits (behaviour.md §5), shared by every app process on this
 * database (src/server/http/rate-limit-store.ts): one row per limit and client (or email),
 * its hits in the current window and when the window ends. Expired rows are purged hourly.
 */
export const rateLimits = pgTable(
  'rate_limits',
  {
    key: text('key').primaryKey(),
    hits: integer('hits').notNull(),
    resetAt: tstz('reset_at').notNull(),
  },
  (t) => [check('rate_limits_hits_positive', sql`${t.hits} > 0`), index('rate_limits_reset_idx').on(t.resetAt)],
);

/**
 * One row per occurrence of a scheduled job that some process ran (src/server/jobs/scheduler.ts):
 * the process that inserts the row first runs it, the others skip it, however far apart
 * their timers fire. Kept 14 days, so the table also tells when each job last ran and how.
 */
export const jobRuns = pgTable(
  'job_runs',
  {
    job: text('job').notNull(),
    scheduledAt: tstz('scheduled_at').notNull(),
    startedAt: tstz('started_at').notNull().defaultNow(),
    finishedAt: tstz('finished_at'),
    /** Who ran it: host name and process id. */
    runner: text('runner').notNull(),
    error: text('error'),
  },
  (t) => [
    primaryKey({ columns: [t.job, t.scheduledAt] }),
    check('job_runs_finished_after_start', sql`${t.finishedAt} is null or ${t.finishedAt} >= ${t.startedAt}`),
  ],
);


/**
 * Damage reported when a bike is returned (decision 022): the bike goes to `manutenzione`
 * and the admins are emailed. `risoltaAt` is set by an admin when the bike is repaired.
 */
export const segnalazioniDanni = pgTable(
  'segnalazioni_danni',
  {
    id: serial('id').primaryKey(),
    prenotazioneId: integer('prenotazione_id').references(() => prenotazioni.id, { onDelete: 'set null' }),
    biciId: integer('bici_id')
      .notNull()
      .references(() => biciclette.id, { onDelete: 'cascade' }),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    categoria: text('categoria', { enum: DAMAGE_CATEGORIES }).notNull(),
    descrizione: text('descrizione').notNull(),
    createdAt: createdAt(),
    risoltaAt: tstz('risolta_at'),
  },
  (t) => [
    check('segnalazioni_categoria_valid', sql`${t.categoria} in ('freni', 'ruote', 'catena', 'luci', 'telaio', 'altro')`),
    check('segnalazioni_descrizione_length', sql`length(${t.descrizione}) between 1 and 500`),
    uniqueIndex('segnalazioni_una_per_prenotazione').on(t.prenotazioneId),
    index('segnalazioni_aperte_idx').on(t.createdAt).where(sql`${t.risoltaAt} is null`),
  ],
);

/** A user's choices of the profile page (decision 022): reminders, and the private calendar feed. */
export const preferenzeUtente = pgTable('preferenze_utente', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  promemoria: boolean('promemoria').notNull().default(true),
  /** SHA-256 of the calendar feed's token (the token itself is shown once, in the URL). */
  calendarioTokenHash: text('calendario_token_hash').unique(),
  updatedAt: updatedAt(),
});

/** Web-push subscriptions of the installed app (one per browser), for the reminders. */
export const pushSubscriptions = pgTable(
  'push_subscriptions',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    endpoint: text('endpoint').notNull().unique(),
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    /** The browser's `expirationTime`, when it gave one: past it the subscription is dead (decision 029). */
    scadeAt: tstz('scade_at'),
    createdAt: createdAt(),
  },
  (t) => [index('push_subscriptions_user_idx').on(t.userId)],
);

/**
 * Settings the app makes for itself once and every process shares (decision 022): the web-push
 * VAPID key pair when VAPID_* are not configured. One row per key.
 */
export const impostazioni = pgTable('impostazioni', {
  chiave: text('chiave').primaryKey(),
  valore: text('valore').notNull(),
  createdAt: createdAt(),
});

/**
 * The service's rules (issue 20, decision 024): one row (id 1), edited in /admin → Regole.
 * A null limit is switched off. Made at the first start from the environment's defaults
 * (BOOKING_HORIZON_DAYS, PAYMENT_HOLD_MINUTES, NO_SHOW_MINUTES); a change NOTIFYs every
 * process (channel `bicielis_regole`, drizzle/0011).
 */
export const regole = pgTable(
  'regole',
  {
    id: integer('id').primaryKey().default(1),
    /** Seven entries, Monday first: `{ apertura, chiusura }` (HH:mm) or null (closed). */
    orari: jsonb('orari').notNull(),
    durataMassimaMinuti: integer('durata_massima_minuti'),
    prenotazioniSettimanaliMax: integer('prenotazioni_settimanali_max'),
    preavvisoMinimoMinuti: integer('preavviso_minimo_minuti'),
    orizzonteGiorni: integer('orizzonte_giorni'),
    attesaPagamentoMinuti: integer('attesa_pagamento_minuti'),
    mancatoRitiroMinuti: integer('mancato_ritiro_minuti'),
    sospensioneSoglia: integer('sospensione_soglia'),
    sospensioneFinestraGiorni: integer('sospensione_finestra_giorni'),
    sospensioneGiorni: integer('sospensione_giorni'),
    /** How long a waitlist's offer holds its bike (issue 21). */
    offertaMinuti: integer('offerta_minuti').notNull().default(15),
    /**
     * Months after which bookings, damage reports and notices are anonymised (issue 23,
     * decision 029). Null only until the first start after migration 0014 writes RETENTION_MONTHS.
     */
    conservazioneMesi: integer('conservazione_mesi'),
    updatedAt: updatedAt(),
    updatedBy: text('updated_by'),
  },
  (t) => [
    check('regole_one_row', sql`${t.id} = 1`),
    check('regole_conservazione_mesi_range', sql`${t.conservazioneMesi} is null or ${t.conservazioneMesi} between 1 and 120`),
    check('regole_orari_week', sql`jsonb_typeof(${t.orari}) = 'array' and jsonb_array_length(${t.orari}) = 7`),
    check(
      'regole_sospensione_all_or_none',
      sql`(${t.sospensioneSoglia} is null) = (${t.sospensioneFinestraGiorni} is null) and (${t.sospensioneSoglia} is null) = (${t.sospensioneGiorni} is null)`,
    ),
  ],
);

/** Days the service is closed (issue 20): nothing may be booked from `dal` to `al`, both included. */
export const chiusure = pgTable(
  'chiusure',
  {
    id: serial('id').primaryKey(),
    dal: date('dal', { mode: 'string' }).notNull(),
    al: date('al', { mode: 'string' }).notNull(),
    motivo: text('motivo').notNull(),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    check('chiusure_range', sql`${t.dal} <= ${t.al}`),
    check('chiusure_motivo_length', sql`length(btrim(${t.motivo})) between 1 and 200`),
    index('chiusure_al_idx').on(t.al),
  ],
);

/**
 * Planned maintenance of one bike (issue 20): offered to nobody from `inizio` to `fine`; the
 * life cycle shows it `manutenzione` (stato_auto) inside the period. Two periods of one bike
 * never overlap (an EXCLUDE constraint written by hand in drizzle/0011).
 */
export const manutenzioni = pgTable(
  'manutenzioni',
  {
    id: serial('id').primaryKey(),
    biciId: integer('bici_id')
      .notNull()
      .references(() => biciclette.id, { onDelete: 'cascade' }),
    inizio: tstz('inizio').notNull(),
    fine: tstz('fine').notNull(),
    motivo: text('motivo').notNull(),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    check('manutenzioni_window', sql`${t.inizio} < ${t.fine}`),
    check('manutenzioni_motivo_length', sql`length(btrim(${t.motivo})) between 1 and 200`),
    index('manutenzioni_fine_idx').on(t.fine),
  ],
);

/**
 * A row of `prenotazioni` that is a booking, not a waitlist's offer (issue 21): every reader
 * of bookings that does not already ask for a state uses it.
 */
export const isBooking = sql`${prenotazioni.stato} <> 'offerta'`;

/** The state of a row read with `isBooking` (an offer cannot be among them). */
export function bookingStato(stato: (typeof BOOKING_STATES)[number]): Exclude<(typeof BOOKING_STATES)[number], 'offerta'> {
  if (stato === 'offerta') throw new Error('an offer read as a booking');
  return stato;
}

export const WAIT_STATES = ['in_attesa', 'offerta', 'servita', 'rinunciata', 'persa', 'scaduta', 'uscita'] as const;

/**
 * The waitlist (issue 21, decision 025): a user's place in the line for one window. Open
 * while `in_attesa` or `offerta` (a bike held for them: a `prenotazioni` row in stato
 * `offerta`); `ended_at` and the final state say how it ended. The line's order is
 * `created_at`, then `id`. Kept after a user's deletion, anonymous, for the statistics.
 */
export const attese = pgTable(
  'attese',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    dataPrenotazione: date('data_prenotazione', { mode: 'string' }).notNull(),
    orarioInizio: text('orario_inizio').notNull(),
    orarioFine: text('orario_fine').notNull(),
    inizio: tstz('inizio').notNull(),
    fine: tstz('fine').notNull(),
    destinazione: text('destinazione'),
    stato: text('stato', { enum: WAIT_STATES }).notNull().default('in_attesa'),
    createdAt: createdAt(),
    endedAt: tstz('ended_at'),
  },
  (t) => [
    check('attese_window', sql`${t.inizio} < ${t.fine}`),
    check('attese_stato_valid', sql`${t.stato} in ('in_attesa', 'offerta', 'servita', 'rinunciata', 'persa', 'scaduta', 'uscita')`),
    check('attese_ended', sql`(${t.stato} in ('in_attesa', 'offerta')) = (${t.endedAt} is null)`),
    check('attese_destinazione_length', sql`${t.destinazione} is null or length(${t.destinazione}) <= 200`),
    index('attese_open_idx').on(t.inizio, t.createdAt, t.id).where(sql`${t.stato} in ('in_attesa', 'offerta')`),
    uniqueIndex('attese_one_per_window').on(t.userId, t.inizio, t.fine).where(sql`${t.stato} in ('in_attesa', 'offerta')`),
    index('attese_day_idx').on(t.dataPrenotazione),
  ],
);

export const OFFLINE_ACTION_KINDS = ['ritiro', 'riconsegna'] as const;
export const OFFLINE_TIME_SOURCES = ['dispositivo', 'server'] as const;

/**
 * Ride actions sent with an id made on the device (issue 22, decision 026): a pick-up or a
 * return queued offline and replayed, perhaps twice. The primary key makes it apply once: the
 * row is inserted by the action's own transaction, as its last statement, so two replays on
 * two processes cannot both apply it. `ora_applicata` is the instant written on the booking,
 * the device's (`fonte_ora` 'dispositivo') or the server's. Gone with its booking; purged
 * after 30 days by the hourly purge job.
 */
export const azioniOffline = pgTable(
  'azioni_offline',
  {
    id: uuid('id').primaryKey(),
    userId: integer('user_id').notNull(),
    prenotazioneId: integer('prenotazione_id')
      .notNull()
      .references(() => prenotazioni.id, { onDelete: 'cascade' }),
    tipo: text('tipo', { enum: OFFLINE_ACTION_KINDS }).notNull(),
    oraDispositivo: tstz('ora_dispositivo'),
    oraApplicata: tstz('ora_applicata').notNull(),
    fonteOra: text('fonte_ora', { enum: OFFLINE_TIME_SOURCES }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    check('azioni_offline_tipo_valid', sql`${t.tipo} in ('ritiro', 'riconsegna')`),
    check(
      'azioni_offline_fonte_ora_valid',
      sql`${t.fonteOra} = 'server' or (${t.fonteOra} = 'dispositivo' and ${t.oraApplicata} = ${t.oraDispositivo})`,
    ),
    index('azioni_offline_created_idx').on(t.createdAt),
    index('azioni_offline_prenotazione_idx').on(t.prenotazioneId),
  ],
);

/**
 * The single-use recovery codes of a second factor (decision 030): ten per enrolment, each
 * kept as an HMAC-SHA-256 under the configuration's key, used at most once (`usato_at`).
 */
export const codiciRecupero = pgTable(
  'codici_recupero',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    hash: text('hash').notNull(),
    usatoAt: tstz('usato_at'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('codici_recupero_user_hash').on(t.userId, t.hash)],
);

/**
 * Freed time, the outbox of the waitlist's dispatcher (decision 035): "this bike's time from
 * `inizio` to `fine` is free again" (bike and window null when the change concerns every
 * bike: a closure, a user gone, a wait joined). Written only by the triggers of
 * drizzle/0018_freed_time.sql, in the transaction of the change; claimed and deleted by
 * modules/waitlist/dispatcher.ts after the commit, in whichever process gets there first.
 */
export const tempoLiberato = pgTable('tempo_liberato', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  biciId: integer('bici_id'),
  inizio: tstz('inizio'),
  fine: tstz('fine'),
  motivo: text('motivo').notNull(),
  createdAt: createdAt(),
});
