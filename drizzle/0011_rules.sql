CREATE TABLE "chiusure" (
	"id" serial PRIMARY KEY NOT NULL,
	"dal" date NOT NULL,
	"al" date NOT NULL,
	"motivo" text NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "chiusure_range" CHECK ("chiusure"."dal" <= "chiusure"."al"),
	CONSTRAINT "chiusure_motivo_length" CHECK (length(btrim("chiusure"."motivo")) between 1 and 200)
);
--> statement-breakpoint
CREATE TABLE "manutenzioni" (
	"id" serial PRIMARY KEY NOT NULL,
	"bici_id" integer NOT NULL,
	"inizio" timestamp with time zone NOT NULL,
	"fine" timestamp with time zone NOT NULL,
	"motivo" text NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "manutenzioni_window" CHECK ("manutenzioni"."inizio" < "manutenzioni"."fine"),
	CONSTRAINT "manutenzioni_motivo_length" CHECK (length(btrim("manutenzioni"."motivo")) between 1 and 200)
);
--> statement-breakpoint
CREATE TABLE "regole" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"orari" jsonb NOT NULL,
	"durata_massima_minuti" integer,
	"prenotazioni_settimanali_max" integer,
	"preavviso_minimo_minuti" integer,
	"orizzonte_giorni" integer,
	"attesa_pagamento_minuti" integer,
	"mancato_ritiro_minuti" integer,
	"sospensione_soglia" integer,
	"sospensione_finestra_giorni" integer,
	"sospensione_giorni" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" text,
	CONSTRAINT "regole_one_row" CHECK ("regole"."id" = 1),
	CONSTRAINT "regole_orari_week" CHECK (jsonb_typeof("regole"."orari") = 'array' and jsonb_array_length("regole"."orari") = 7),
	CONSTRAINT "regole_sospensione_all_or_none" CHECK (("regole"."sospensione_soglia" is null) = ("regole"."sospensione_finestra_giorni" is null) and ("regole"."sospensione_soglia" is null) = ("regole"."sospensione_giorni" is null))
);
--> statement-breakpoint
ALTER TABLE "prenotazioni" DROP CONSTRAINT "prenotazioni_motivo_valid";--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "sospensione_revocata_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "chiusure" ADD CONSTRAINT "chiusure_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "manutenzioni" ADD CONSTRAINT "manutenzioni_bici_id_biciclette_id_fk" FOREIGN KEY ("bici_id") REFERENCES "public"."biciclette"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "manutenzioni" ADD CONSTRAINT "manutenzioni_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "chiusure_al_idx" ON "chiusure" USING btree ("al");--> statement-breakpoint
CREATE INDEX "manutenzioni_fine_idx" ON "manutenzioni" USING btree ("fine");--> statement-breakpoint
ALTER TABLE "prenotazioni" ADD CONSTRAINT "prenotazioni_motivo_valid" CHECK ("prenotazioni"."motivo_cancellazione" is null or ("prenotazioni"."stato" = 'cancellata' and "prenotazioni"."motivo_cancellazione" in ('utente', 'admin', 'pagamento_scaduto', 'mancato_ritiro', 'chiusura', 'manutenzione')));--> statement-breakpoint
-- Hand-written (issue 20, decision 024). Two planned maintenances of one bike never overlap.
ALTER TABLE "manutenzioni" ADD CONSTRAINT "manutenzioni_no_overlap" EXCLUDE USING gist ("bici_id" WITH =, tstzrange("inizio", "fine", '[)') WITH &&);--> statement-breakpoint
-- Every process keeps the rules and the closures in memory; a change tells them all at once.
CREATE OR REPLACE FUNCTION bicielis_rules_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('bicielis_regole', TG_TABLE_NAME);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER regole_notify AFTER INSERT OR UPDATE OR DELETE ON "regole" FOR EACH STATEMENT EXECUTE FUNCTION bicielis_rules_changed();--> statement-breakpoint
CREATE TRIGGER chiusure_notify AFTER INSERT OR UPDATE OR DELETE ON "chiusure" FOR EACH STATEMENT EXECUTE FUNCTION bicielis_rules_changed();
