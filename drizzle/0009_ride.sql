CREATE TABLE "impostazioni" (
	"chiave" text PRIMARY KEY NOT NULL,
	"valore" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "preferenze_utente" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"promemoria" boolean DEFAULT true NOT NULL,
	"calendario_token_hash" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "preferenze_utente_calendario_token_hash_unique" UNIQUE("calendario_token_hash")
);
--> statement-breakpoint
CREATE TABLE "push_subscriptions" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"endpoint" text NOT NULL,
	"p256dh" text NOT NULL,
	"auth" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "push_subscriptions_endpoint_unique" UNIQUE("endpoint")
);
--> statement-breakpoint
CREATE TABLE "segnalazioni_danni" (
	"id" serial PRIMARY KEY NOT NULL,
	"prenotazione_id" integer,
	"bici_id" integer NOT NULL,
	"user_id" integer,
	"categoria" text NOT NULL,
	"descrizione" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"risolta_at" timestamp with time zone,
	CONSTRAINT "segnalazioni_categoria_valid" CHECK ("segnalazioni_danni"."categoria" in ('freni', 'ruote', 'catena', 'luci', 'telaio', 'altro')),
	CONSTRAINT "segnalazioni_descrizione_length" CHECK (length("segnalazioni_danni"."descrizione") between 1 and 500)
);
--> statement-breakpoint
ALTER TABLE "prenotazioni" ADD COLUMN "ritirata_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "prenotazioni" ADD COLUMN "riconsegnata_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "prenotazioni" ADD COLUMN "motivo_cancellazione" text;--> statement-breakpoint
ALTER TABLE "prenotazioni" ADD COLUMN "promemoria_inizio_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "prenotazioni" ADD COLUMN "promemoria_fine_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "prenotazioni" ADD COLUMN "ritardo_avvisato_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "preferenze_utente" ADD CONSTRAINT "preferenze_utente_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "push_subscriptions" ADD CONSTRAINT "push_subscriptions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "segnalazioni_danni" ADD CONSTRAINT "segnalazioni_danni_prenotazione_id_prenotazioni_id_fk" FOREIGN KEY ("prenotazione_id") REFERENCES "public"."prenotazioni"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "segnalazioni_danni" ADD CONSTRAINT "segnalazioni_danni_bici_id_biciclette_id_fk" FOREIGN KEY ("bici_id") REFERENCES "public"."biciclette"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "segnalazioni_danni" ADD CONSTRAINT "segnalazioni_danni_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "push_subscriptions_user_idx" ON "push_subscriptions" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "segnalazioni_una_per_prenotazione" ON "segnalazioni_danni" USING btree ("prenotazione_id");--> statement-breakpoint
CREATE INDEX "segnalazioni_aperte_idx" ON "segnalazioni_danni" USING btree ("created_at") WHERE "segnalazioni_danni"."risolta_at" is null;--> statement-breakpoint
ALTER TABLE "prenotazioni" ADD CONSTRAINT "prenotazioni_riconsegna_dopo_ritiro" CHECK ("prenotazioni"."riconsegnata_at" is null or ("prenotazioni"."ritirata_at" is not null and "prenotazioni"."riconsegnata_at" >= "prenotazioni"."ritirata_at" and "prenotazioni"."stato" = 'completata'));--> statement-breakpoint
ALTER TABLE "prenotazioni" ADD CONSTRAINT "prenotazioni_ritiro_non_cancellata" CHECK ("prenotazioni"."ritirata_at" is null or "prenotazioni"."stato" <> 'cancellata' or "prenotazioni"."motivo_cancellazione" = 'admin');--> statement-breakpoint
ALTER TABLE "prenotazioni" ADD CONSTRAINT "prenotazioni_motivo_valid" CHECK ("prenotazioni"."motivo_cancellazione" is null or ("prenotazioni"."stato" = 'cancellata' and "prenotazioni"."motivo_cancellazione" in ('utente', 'admin', 'pagamento_scaduto', 'mancato_ritiro')));