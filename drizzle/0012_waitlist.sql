-- Hand-written (issue 21, decision 025): the waitlist. A wait (`attese`) is a user's place in
-- the line for one window; an offer is a row of `prenotazioni` with stato 'offerta' that holds
-- a freed bike for the first in line, inside the same exclusion constraint as the bookings.
CREATE TABLE "attese" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer,
	"data_prenotazione" date NOT NULL,
	"orario_inizio" text NOT NULL,
	"orario_fine" text NOT NULL,
	"inizio" timestamp with time zone NOT NULL,
	"fine" timestamp with time zone NOT NULL,
	"destinazione" text,
	"stato" text DEFAULT 'in_attesa' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ended_at" timestamp with time zone,
	CONSTRAINT "attese_window" CHECK ("attese"."inizio" < "attese"."fine"),
	CONSTRAINT "attese_stato_valid" CHECK ("attese"."stato" in ('in_attesa', 'offerta', 'servita', 'rinunciata', 'persa', 'scaduta', 'uscita')),
	CONSTRAINT "attese_ended" CHECK (("attese"."stato" in ('in_attesa', 'offerta')) = ("attese"."ended_at" is null)),
	CONSTRAINT "attese_destinazione_length" CHECK ("attese"."destinazione" is null or length("attese"."destinazione") <= 200)
);
--> statement-breakpoint
-- A deleted user's waits stay, anonymous, for the unserved demand of the statistics.
ALTER TABLE "attese" ADD CONSTRAINT "attese_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
-- The line: open waits by their window's start (the pass and the sweep read them in order).
CREATE INDEX "attese_open_idx" ON "attese" USING btree ("inizio", "created_at", "id") WHERE "attese"."stato" in ('in_attesa', 'offerta');--> statement-breakpoint
-- One open wait per user and window.
CREATE UNIQUE INDEX "attese_one_per_window" ON "attese" USING btree ("user_id", "inizio", "fine") WHERE "attese"."stato" in ('in_attesa', 'offerta');--> statement-breakpoint
CREATE INDEX "attese_day_idx" ON "attese" USING btree ("data_prenotazione");--> statement-breakpoint
ALTER TABLE "prenotazioni" ADD COLUMN "attesa_id" integer;--> statement-breakpoint
ALTER TABLE "prenotazioni" ADD COLUMN "offerta_scade_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "prenotazioni" ADD COLUMN "offerta_avvisata_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "prenotazioni" ADD CONSTRAINT "prenotazioni_attesa_id_attese_id_fk" FOREIGN KEY ("attesa_id") REFERENCES "public"."attese"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prenotazioni" DROP CONSTRAINT "prenotazioni_stato_valid";--> statement-breakpoint
ALTER TABLE "prenotazioni" ADD CONSTRAINT "prenotazioni_stato_valid" CHECK ("prenotazioni"."stato" in ('attiva', 'completata', 'cancellata', 'offerta'));--> statement-breakpoint
-- An offer belongs to a wait and has an expiry; nothing else has one.
ALTER TABLE "prenotazioni" ADD CONSTRAINT "prenotazioni_offerta_shape" CHECK (("prenotazioni"."stato" = 'offerta') = ("prenotazioni"."offerta_scade_at" is not null) and ("prenotazioni"."stato" <> 'offerta' or "prenotazioni"."attesa_id" is not null));--> statement-breakpoint
-- At most one open offer per wait.
CREATE UNIQUE INDEX "prenotazioni_one_offer_per_wait" ON "prenotazioni" USING btree ("attesa_id") WHERE "prenotazioni"."stato" = 'offerta';--> statement-breakpoint
-- The offers' ranges, for the availability read (the active ranges keep their own index).
CREATE INDEX "prenotazioni_offer_range_idx" ON "prenotazioni" USING gist (tstzrange("inizio", "fine", '[)')) WHERE "prenotazioni"."stato" = 'offerta';--> statement-breakpoint
-- Invariant 1 now covers offers: an offered bike can never also be booked, nor offered twice.
ALTER TABLE "prenotazioni" DROP CONSTRAINT "prenotazioni_no_overlap";--> statement-breakpoint
ALTER TABLE "prenotazioni" ADD CONSTRAINT "prenotazioni_no_overlap" EXCLUDE USING gist ("bici_id" WITH =, tstzrange("inizio", "fine", '[)') WITH &&) WHERE ("stato" in ('attiva', 'offerta'));--> statement-breakpoint
-- An offer is not a ride: the statistics count active and completed bookings only (an offer
-- accepted becomes 'attiva' then, a declined one is deleted and never counted).
CREATE OR REPLACE FUNCTION stats_booking_deltas(rows prenotazioni[], sign integer)
RETURNS TABLE (day date, kind text, key integer, rides bigint, cancellations bigint, seconds bigint)
LANGUAGE sql STABLE AS $$
  SELECT b.data_prenotazione, d.kind, d.key,
         sum(CASE WHEN b.stato in ('attiva', 'completata') THEN sign ELSE 0 END),
         sum(CASE WHEN b.stato = 'cancellata' THEN sign ELSE 0 END),
         sum(CASE WHEN b.stato in ('attiva', 'completata') THEN sign * round(extract(epoch FROM b.fine - b.inizio))::bigint ELSE 0 END)
    FROM unnest(rows) b
   CROSS JOIN LATERAL (VALUES ('bike', b.bici_id), ('day', 0), ('hour', left(b.orario_inizio, 2)::int),
                              ('res', CASE WHEN b.residente THEN 1 ELSE 0 END)) d(kind, key)
   GROUP BY 1, 2, 3
$$;
--> statement-breakpoint
ALTER TABLE "regole" ADD COLUMN "offerta_minuti" integer DEFAULT 15 NOT NULL;--> statement-breakpoint
ALTER TABLE "regole" ADD CONSTRAINT "regole_offerta_minuti_range" CHECK ("regole"."offerta_minuti" between 1 and 1440);
