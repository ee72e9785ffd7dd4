ALTER TABLE "pagamenti" DROP CONSTRAINT "pagamenti_prenotazione_id_prenotazioni_id_fk";
--> statement-breakpoint
ALTER TABLE "pagamenti" ALTER COLUMN "prenotazione_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "biciclette" ADD COLUMN "stato_auto" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "pagamenti" ADD COLUMN "booking_date" date;--> statement-breakpoint
ALTER TABLE "pagamenti" ADD COLUMN "booking_deleted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "pagamenti" ADD CONSTRAINT "pagamenti_prenotazione_id_prenotazioni_id_fk" FOREIGN KEY ("prenotazione_id") REFERENCES "public"."prenotazioni"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_log_entity_idx" ON "audit_log" USING btree ("entity","entity_id");--> statement-breakpoint
CREATE INDEX "prenotazioni_admin_order_idx" ON "prenotazioni" USING btree ("data_prenotazione","orario_inizio","id");--> statement-breakpoint
ALTER TABLE "pagamenti" ADD CONSTRAINT "pagamenti_detached_snapshot" CHECK ("pagamenti"."prenotazione_id" is not null or ("pagamenti"."booking_date" is not null and "pagamenti"."booking_deleted_at" is not null));--> statement-breakpoint
-- Written by hand: bikes shown `prenotata` before this migration were marked by the life
-- cycle (the only writer of that state until now), so the life cycle may free them again.
-- docs/decisions/014-bike-state-vs-lifecycle.md.
UPDATE "biciclette" SET "stato_auto" = true WHERE "stato" = 'prenotata';
