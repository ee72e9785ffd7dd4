-- btree_gist lets the exclusion constraint below compare bici_id (an integer) with =.
CREATE EXTENSION IF NOT EXISTS btree_gist;
--> statement-breakpoint
CREATE TABLE "audit_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"actor_id" integer,
	"actor_email" text,
	"action" text NOT NULL,
	"entity" text NOT NULL,
	"entity_id" text,
	"before" jsonb,
	"after" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "biciclette" (
	"id" serial PRIMARY KEY NOT NULL,
	"numero" text NOT NULL,
	"modello" text NOT NULL,
	"stato" text DEFAULT 'disponibile' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "biciclette_numero_unique" UNIQUE("numero"),
	CONSTRAINT "biciclette_stato_valid" CHECK ("biciclette"."stato" in ('disponibile', 'prenotata', 'manutenzione', 'fuori_servizio')),
	CONSTRAINT "biciclette_numero_not_blank" CHECK (length(btrim("biciclette"."numero")) > 0)
);
--> statement-breakpoint
CREATE TABLE "pagamenti" (
	"id" serial PRIMARY KEY NOT NULL,
	"prenotazione_id" integer NOT NULL,
	"provider" text NOT NULL,
	"provider_payment_id" text,
	"provider_checkout_id" text,
	"amount" integer DEFAULT 250 NOT NULL,
	"currency" text DEFAULT 'eur' NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone,
	"refunded_at" timestamp with time zone,
	CONSTRAINT "pagamenti_provider_payment_id_unique" UNIQUE("provider_payment_id"),
	CONSTRAINT "pagamenti_provider_checkout_id_unique" UNIQUE("provider_checkout_id"),
	CONSTRAINT "pagamenti_status_valid" CHECK ("pagamenti"."status" in ('pending', 'completed', 'failed', 'refunded')),
	CONSTRAINT "pagamenti_amount_positive" CHECK ("pagamenti"."amount" > 0)
);
--> statement-breakpoint
CREATE TABLE "prenotazioni" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"bici_id" integer NOT NULL,
	"data_prenotazione" date NOT NULL,
	"orario_inizio" text NOT NULL,
	"orario_fine" text NOT NULL,
	"inizio" timestamp with time zone NOT NULL,
	"fine" timestamp with time zone NOT NULL,
	"destinazione" text,
	"stato" text DEFAULT 'attiva' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "prenotazioni_window" CHECK ("prenotazioni"."inizio" < "prenotazioni"."fine"),
	CONSTRAINT "prenotazioni_stato_valid" CHECK ("prenotazioni"."stato" in ('attiva', 'completata', 'cancellata')),
	CONSTRAINT "prenotazioni_orari_format" CHECK ("prenotazioni"."orario_inizio" ~ '^[0-2][0-9]:[0-5][0-9]$' and "prenotazioni"."orario_fine" ~ '^[0-2][0-9]:[0-5][0-9]$'),
	CONSTRAINT "prenotazioni_destinazione_length" CHECK ("prenotazioni"."destinazione" is null or length("prenotazioni"."destinazione") <= 200)
);
--> statement-breakpoint
CREATE TABLE "provider_events" (
	"id" text PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"type" text NOT NULL,
	"payload" jsonb NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reports" (
	"id" serial PRIMARY KEY NOT NULL,
	"file_name" text NOT NULL,
	"report_date" date NOT NULL,
	"pdf" "bytea" NOT NULL,
	"file_size" integer NOT NULL,
	"email_sent" boolean DEFAULT false NOT NULL,
	"email_sent_at" timestamp with time zone,
	"email_attempts" integer DEFAULT 0 NOT NULL,
	"last_email_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reports_report_date_unique" UNIQUE("report_date"),
	CONSTRAINT "reports_file_size" CHECK ("reports"."file_size" >= 0)
);
--> statement-breakpoint
CREATE TABLE "residenti" (
	"id" serial PRIMARY KEY NOT NULL,
	"sigla" text NOT NULL,
	"nome" text NOT NULL,
	"cognome" text NOT NULL,
	"corso_di_studi" text,
	"anno_corso" integer,
	"attivo" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "residenti_sigla_unique" UNIQUE("sigla"),
	CONSTRAINT "residenti_sigla_upper" CHECK ("residenti"."sigla" = upper("residenti"."sigla") and length("residenti"."sigla") between 1 and 32),
	CONSTRAINT "residenti_anno_corso_range" CHECK ("residenti"."anno_corso" is null or "residenti"."anno_corso" between 1 and 10)
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"kind" text DEFAULT 'session' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "sessions_kind_valid" CHECK ("sessions"."kind" in ('session', 'password_change'))
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" serial PRIMARY KEY NOT NULL,
	"nome" text NOT NULL,
	"cognome" text NOT NULL,
	"email" text NOT NULL,
	"password_hash" text NOT NULL,
	"ruolo" text DEFAULT 'user' NOT NULL,
	"is_residente" boolean DEFAULT false NOT NULL,
	"sigla_residente" text,
	"attiva" boolean DEFAULT true NOT NULL,
	"must_change_password" boolean DEFAULT false NOT NULL,
	"temp_password_hash" text,
	"temp_password_expires_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "users_email_unique" UNIQUE("email"),
	CONSTRAINT "users_sigla_residente_unique" UNIQUE("sigla_residente"),
	CONSTRAINT "users_email_normalised" CHECK ("users"."email" = lower(btrim("users"."email")) and position('@' in "users"."email") > 1),
	CONSTRAINT "users_ruolo_valid" CHECK ("users"."ruolo" in ('admin', 'user'))
);
--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pagamenti" ADD CONSTRAINT "pagamenti_prenotazione_id_prenotazioni_id_fk" FOREIGN KEY ("prenotazione_id") REFERENCES "public"."prenotazioni"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prenotazioni" ADD CONSTRAINT "prenotazioni_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prenotazioni" ADD CONSTRAINT "prenotazioni_bici_id_biciclette_id_fk" FOREIGN KEY ("bici_id") REFERENCES "public"."biciclette"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_sigla_residente_residenti_sigla_fk" FOREIGN KEY ("sigla_residente") REFERENCES "public"."residenti"("sigla") ON DELETE restrict ON UPDATE cascade;--> statement-breakpoint
CREATE INDEX "audit_log_created_idx" ON "audit_log" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "pagamenti_one_per_booking" ON "pagamenti" USING btree ("prenotazione_id");--> statement-breakpoint
CREATE INDEX "pagamenti_pending_idx" ON "pagamenti" USING btree ("prenotazione_id") WHERE "pagamenti"."status" = 'pending';--> statement-breakpoint
CREATE UNIQUE INDEX "prenotazioni_one_active_per_user" ON "prenotazioni" USING btree ("user_id") WHERE "prenotazioni"."stato" = 'attiva';--> statement-breakpoint
CREATE INDEX "prenotazioni_user_idx" ON "prenotazioni" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "prenotazioni_active_fine_idx" ON "prenotazioni" USING btree ("fine") WHERE "prenotazioni"."stato" = 'attiva';--> statement-breakpoint
CREATE INDEX "prenotazioni_data_idx" ON "prenotazioni" USING btree ("data_prenotazione");--> statement-breakpoint
CREATE INDEX "prenotazioni_bici_idx" ON "prenotazioni" USING btree ("bici_id","data_prenotazione");--> statement-breakpoint
CREATE INDEX "sessions_user_idx" ON "sessions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "sessions_expires_idx" ON "sessions" USING btree ("expires_at");--> statement-breakpoint
-- Invariant 1 of behaviour.md §3: no two active bookings of one bike overlap in time.
-- Half-open ranges [inizio, fine): 10:00-12:00 and 12:00-14:00 do not overlap.
ALTER TABLE "prenotazioni" ADD CONSTRAINT "prenotazioni_no_overlap" EXCLUDE USING gist ("bici_id" WITH =, tstzrange("inizio", "fine", '[)') WITH &&) WHERE ("stato" = 'attiva');
