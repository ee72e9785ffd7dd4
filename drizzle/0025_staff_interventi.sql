CREATE TABLE "interventi" (
	"id" serial PRIMARY KEY NOT NULL,
	"sede_id" integer DEFAULT null NOT NULL,
	"bici_id" integer NOT NULL,
	"prenotazione_id" integer,
	"origine" text NOT NULL,
	"categoria" text NOT NULL,
	"descrizione" text NOT NULL,
	"segnalato_da" integer,
	"stato" text DEFAULT 'aperto' NOT NULL,
	"assegnatario_id" integer,
	"non_utilizzabile" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"chiuso_at" timestamp with time zone,
	CONSTRAINT "interventi_stato_valid" CHECK ("interventi"."stato" in ('aperto', 'in_lavorazione', 'riparata', 'non_riparabile')),
	CONSTRAINT "interventi_origine_valid" CHECK ("interventi"."origine" in ('riconsegna', 'ritiro', 'segnalazione', 'staff')),
	CONSTRAINT "interventi_categoria_valid" CHECK ("interventi"."categoria" in ('freni', 'ruote', 'catena', 'luci', 'telaio', 'altro')),
	CONSTRAINT "interventi_descrizione_length" CHECK (length("interventi"."descrizione") between 1 and 500),
	CONSTRAINT "interventi_chiuso_coerente" CHECK (("interventi"."chiuso_at" is not null) = ("interventi"."stato" in ('riparata', 'non_riparabile')))
);
--> statement-breakpoint
CREATE TABLE "interventi_foto" (
	"id" serial PRIMARY KEY NOT NULL,
	"intervento_id" integer NOT NULL,
	"nota_id" integer,
	"caricata_da" integer,
	"mime" text NOT NULL,
	"dati" "bytea" NOT NULL,
	"larghezza" integer NOT NULL,
	"altezza" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "interventi_foto_mime_valid" CHECK ("interventi_foto"."mime" in ('image/jpeg', 'image/webp')),
	CONSTRAINT "interventi_foto_lato" CHECK ("interventi_foto"."larghezza" between 1 and 1600 and "interventi_foto"."altezza" between 1 and 1600)
);
--> statement-breakpoint
CREATE TABLE "interventi_note" (
	"id" serial PRIMARY KEY NOT NULL,
	"intervento_id" integer NOT NULL,
	"autore_id" integer,
	"testo" text NOT NULL,
	"minuti" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "interventi_note_testo_length" CHECK (length("interventi_note"."testo") <= 2000),
	CONSTRAINT "interventi_note_minuti_range" CHECK ("interventi_note"."minuti" between 0 and 1440)
);
--> statement-breakpoint
CREATE TABLE "incarichi" (
	"user_id" integer NOT NULL,
	"sede_id" integer NOT NULL,
	"ruolo" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "incarichi_user_id_sede_id_ruolo_pk" PRIMARY KEY("user_id","sede_id","ruolo"),
	CONSTRAINT "incarichi_ruolo_valid" CHECK ("incarichi"."ruolo" in ('portineria', 'officina'))
);
--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "actor_ruolo" text;--> statement-breakpoint
ALTER TABLE "interventi" ADD CONSTRAINT "interventi_sede_id_sedi_id_fk" FOREIGN KEY ("sede_id") REFERENCES "public"."sedi"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "interventi" ADD CONSTRAINT "interventi_bici_id_biciclette_id_fk" FOREIGN KEY ("bici_id") REFERENCES "public"."biciclette"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "interventi" ADD CONSTRAINT "interventi_prenotazione_id_prenotazioni_id_fk" FOREIGN KEY ("prenotazione_id") REFERENCES "public"."prenotazioni"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "interventi" ADD CONSTRAINT "interventi_segnalato_da_users_id_fk" FOREIGN KEY ("segnalato_da") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "interventi" ADD CONSTRAINT "interventi_assegnatario_id_users_id_fk" FOREIGN KEY ("assegnatario_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "interventi_foto" ADD CONSTRAINT "interventi_foto_intervento_id_interventi_id_fk" FOREIGN KEY ("intervento_id") REFERENCES "public"."interventi"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "interventi_foto" ADD CONSTRAINT "interventi_foto_nota_id_interventi_note_id_fk" FOREIGN KEY ("nota_id") REFERENCES "public"."interventi_note"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "interventi_foto" ADD CONSTRAINT "interventi_foto_caricata_da_users_id_fk" FOREIGN KEY ("caricata_da") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "interventi_note" ADD CONSTRAINT "interventi_note_intervento_id_interventi_id_fk" FOREIGN KEY ("intervento_id") REFERENCES "public"."interventi"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "interventi_note" ADD CONSTRAINT "interventi_note_autore_id_users_id_fk" FOREIGN KEY ("autore_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "incarichi" ADD CONSTRAINT "incarichi_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "incarichi" ADD CONSTRAINT "incarichi_sede_id_sedi_id_fk" FOREIGN KEY ("sede_id") REFERENCES "public"."sedi"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "interventi_uno_per_prenotazione" ON "interventi" USING btree ("prenotazione_id","origine","bici_id");--> statement-breakpoint
CREATE INDEX "interventi_aperti_idx" ON "interventi" USING btree ("sede_id","created_at") WHERE "interventi"."chiuso_at" is null;--> statement-breakpoint
CREATE INDEX "interventi_bici_idx" ON "interventi" USING btree ("bici_id","created_at");--> statement-breakpoint
CREATE INDEX "interventi_foto_intervento_idx" ON "interventi_foto" USING btree ("intervento_id");--> statement-breakpoint
CREATE INDEX "interventi_note_intervento_idx" ON "interventi_note" USING btree ("intervento_id","created_at");--> statement-breakpoint
CREATE INDEX "incarichi_sede_idx" ON "incarichi" USING btree ("sede_id","ruolo");--> statement-breakpoint
-- Issue 48, decision 054: every damage report becomes a repair ticket on its bike, at the bike's
-- sede: open if it was not resolved, `riparata` (closed when it was resolved) if it was.
INSERT INTO "interventi" ("sede_id", "bici_id", "prenotazione_id", "origine", "categoria", "descrizione", "segnalato_da", "stato", "created_at", "updated_at", "chiuso_at")
SELECT b."sede_id", s."bici_id", s."prenotazione_id", s."momento", s."categoria", s."descrizione", s."user_id",
       CASE WHEN s."risolta_at" IS NULL THEN 'aperto' ELSE 'riparata' END,
       s."created_at", coalesce(s."risolta_at", s."created_at"), s."risolta_at"
FROM "segnalazioni_danni" s JOIN "biciclette" b ON b."id" = s."bici_id"
ORDER BY s."id";
