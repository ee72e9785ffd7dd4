CREATE TABLE "orari_sede" (
	"sede_id" integer PRIMARY KEY NOT NULL,
	"orari" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" text,
	CONSTRAINT "orari_sede_week" CHECK (jsonb_typeof("orari_sede"."orari") = 'array' and jsonb_array_length("orari_sede"."orari") = 7)
);
--> statement-breakpoint
CREATE TABLE "sedi" (
	"id" serial PRIMARY KEY NOT NULL,
	"nome" text NOT NULL,
	"indirizzo" text DEFAULT '' NOT NULL,
	"nota_rastrelliera" text,
	"archiviata_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sedi_nome_length" CHECK (length(btrim("sedi"."nome")) between 1 and 80),
	CONSTRAINT "sedi_indirizzo_length" CHECK (length("sedi"."indirizzo") <= 200),
	CONSTRAINT "sedi_nota_length" CHECK ("sedi"."nota_rastrelliera" is null or length("sedi"."nota_rastrelliera") <= 200)
);
--> statement-breakpoint
-- Issue 47, decision 053: every bike, person, booking, wait and rack link goes to one sede, named by
-- SEDE_PREDEFINITA (runMigrations sets bicielis.sede_predefinita for this transaction).
INSERT INTO "sedi" ("nome") VALUES (coalesce(nullif(btrim(current_setting('bicielis.sede_predefinita', true)), ''), 'Sede principale'));--> statement-breakpoint
DROP INDEX "rastrelliera_link_one_live";--> statement-breakpoint
DROP INDEX "attese_open_idx";--> statement-breakpoint
ALTER TABLE "biciclette" ADD COLUMN "sede_id" integer DEFAULT null;--> statement-breakpoint
UPDATE "biciclette" SET "sede_id" = (SELECT min("id") FROM "sedi");--> statement-breakpoint
ALTER TABLE "biciclette" ALTER COLUMN "sede_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "prenotazioni" ADD COLUMN "sede_id" integer DEFAULT null;--> statement-breakpoint
UPDATE "prenotazioni" SET "sede_id" = (SELECT min("id") FROM "sedi");--> statement-breakpoint
ALTER TABLE "prenotazioni" ALTER COLUMN "sede_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "chiusure" ADD COLUMN "sede_id" integer DEFAULT null;--> statement-breakpoint
ALTER TABLE "rastrelliera_link" ADD COLUMN "sede_id" integer DEFAULT null;--> statement-breakpoint
UPDATE "rastrelliera_link" SET "sede_id" = (SELECT min("id") FROM "sedi");--> statement-breakpoint
ALTER TABLE "rastrelliera_link" ALTER COLUMN "sede_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "sede_id" integer DEFAULT null;--> statement-breakpoint
UPDATE "users" SET "sede_id" = (SELECT min("id") FROM "sedi");--> statement-breakpoint
ALTER TABLE "users" ALTER COLUMN "sede_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "attese" ADD COLUMN "sede_id" integer DEFAULT null;--> statement-breakpoint
UPDATE "attese" SET "sede_id" = (SELECT min("id") FROM "sedi");--> statement-breakpoint
ALTER TABLE "attese" ALTER COLUMN "sede_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "orari_sede" ADD CONSTRAINT "orari_sede_sede_id_sedi_id_fk" FOREIGN KEY ("sede_id") REFERENCES "public"."sedi"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "sedi_nome_unique" ON "sedi" USING btree (lower(btrim("nome")));--> statement-breakpoint
ALTER TABLE "biciclette" ADD CONSTRAINT "biciclette_sede_id_sedi_id_fk" FOREIGN KEY ("sede_id") REFERENCES "public"."sedi"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prenotazioni" ADD CONSTRAINT "prenotazioni_sede_id_sedi_id_fk" FOREIGN KEY ("sede_id") REFERENCES "public"."sedi"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chiusure" ADD CONSTRAINT "chiusure_sede_id_sedi_id_fk" FOREIGN KEY ("sede_id") REFERENCES "public"."sedi"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rastrelliera_link" ADD CONSTRAINT "rastrelliera_link_sede_id_sedi_id_fk" FOREIGN KEY ("sede_id") REFERENCES "public"."sedi"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_sede_id_sedi_id_fk" FOREIGN KEY ("sede_id") REFERENCES "public"."sedi"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "attese" ADD CONSTRAINT "attese_sede_id_sedi_id_fk" FOREIGN KEY ("sede_id") REFERENCES "public"."sedi"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "biciclette_sede_idx" ON "biciclette" USING btree ("sede_id","numero");--> statement-breakpoint
CREATE INDEX "prenotazioni_sede_order_idx" ON "prenotazioni" USING btree ("sede_id","data_prenotazione","orario_inizio","id");--> statement-breakpoint
CREATE INDEX "users_sede_idx" ON "users" USING btree ("sede_id");--> statement-breakpoint
CREATE UNIQUE INDEX "rastrelliera_link_one_live" ON "rastrelliera_link" USING btree ("sede_id") WHERE "rastrelliera_link"."revoked_at" is null;--> statement-breakpoint
CREATE INDEX "attese_open_idx" ON "attese" USING btree ("sede_id","inizio","created_at","id") WHERE "attese"."stato" in ('in_attesa', 'offerta');--> statement-breakpoint
-- A bike's bookings never overlap; with the sede as the first key, the constraint is one a
-- distribution by sede can keep on each node (decision 053).
ALTER TABLE "prenotazioni" DROP CONSTRAINT "prenotazioni_no_overlap";--> statement-breakpoint
ALTER TABLE "prenotazioni" ADD CONSTRAINT "prenotazioni_no_overlap" EXCLUDE USING gist ("sede_id" WITH =, "bici_id" WITH =, tstzrange("inizio", "fine", '[)') WITH &&) WHERE ("stato" in ('attiva', 'offerta'));--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "sede_id" integer;--> statement-breakpoint
ALTER TABLE "residenti" ADD COLUMN "sede_id" integer;--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_sede_id_sedi_id_fk" FOREIGN KEY ("sede_id") REFERENCES "public"."sedi"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "residenti" ADD CONSTRAINT "residenti_sede_id_sedi_id_fk" FOREIGN KEY ("sede_id") REFERENCES "public"."sedi"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_log_sede_idx" ON "audit_log" USING btree ("sede_id","created_at");--> statement-breakpoint
-- The statistics' rollup per sede (kind 'sede', issue 47) for the history before sedi: exactly what
-- the bookings' and payments' triggers add from now on (bookings/ and payments/triggers).
INSERT INTO "stats_giornaliere" AS s ("day", "kind", "key", "rides", "cancellations", "seconds")
SELECT p."data_prenotazione", 'sede', p."sede_id",
       count(*) FILTER (WHERE p."stato" IN ('attiva', 'completata')),
       count(*) FILTER (WHERE p."stato" = 'cancellata'),
       coalesce(sum(round(extract(epoch FROM p."fine" - p."inizio"))::bigint) FILTER (WHERE p."stato" IN ('attiva', 'completata')), 0)
  FROM "prenotazioni" p WHERE p."stato" IN ('attiva', 'completata', 'cancellata') GROUP BY 1, 3
    ON CONFLICT ("kind", "day", "key") DO UPDATE
   SET "rides" = s."rides" + excluded."rides", "cancellations" = s."cancellations" + excluded."cancellations", "seconds" = s."seconds" + excluded."seconds";--> statement-breakpoint
INSERT INTO "stats_giornaliere" AS s ("day", "kind", "key", "revenue_cents", "released_holds")
SELECT p."data_prenotazione", 'sede', p."sede_id",
       coalesce(sum(r."amount") FILTER (WHERE r."status" = 'completed'), 0), count(*) FILTER (WHERE r."status" = 'failed')
  FROM "pagamenti" r JOIN "prenotazioni" p ON p."id" = r."prenotazione_id" GROUP BY 1, 3
HAVING coalesce(sum(r."amount") FILTER (WHERE r."status" = 'completed'), 0) <> 0 OR count(*) FILTER (WHERE r."status" = 'failed') <> 0
    ON CONFLICT ("kind", "day", "key") DO UPDATE
   SET "revenue_cents" = s."revenue_cents" + excluded."revenue_cents", "released_holds" = s."released_holds" + excluded."released_holds";
