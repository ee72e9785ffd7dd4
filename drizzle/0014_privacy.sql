-- Issue 23 (privacy), decision 029: a booking can outlive its owner as an anonymous row
-- (user_id null) for the statistics, but only once it is over; the retention period is one of
-- the admin's rules (null until the first start writes RETENTION_MONTHS); a push
-- subscription keeps the expiry its browser declared; a session names its device in a few words.
ALTER TABLE "prenotazioni" ALTER COLUMN "user_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "push_subscriptions" ADD COLUMN "scade_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "regole" ADD COLUMN "conservazione_mesi" integer;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "dispositivo" text;--> statement-breakpoint
ALTER TABLE "prenotazioni" ADD CONSTRAINT "prenotazioni_anonima_conclusa" CHECK ("prenotazioni"."user_id" is not null or "prenotazioni"."stato" in ('completata', 'cancellata'));--> statement-breakpoint
ALTER TABLE "regole" ADD CONSTRAINT "regole_conservazione_mesi_range" CHECK ("regole"."conservazione_mesi" is null or "regole"."conservazione_mesi" between 1 and 120);