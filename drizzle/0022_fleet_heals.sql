ALTER TABLE "prenotazioni" DROP CONSTRAINT "prenotazioni_motivo_valid";--> statement-breakpoint
DROP INDEX "segnalazioni_una_per_prenotazione";--> statement-breakpoint
ALTER TABLE "prenotazioni" ADD COLUMN "spostata_da_bici_id" integer;--> statement-breakpoint
ALTER TABLE "prenotazioni" ADD COLUMN "spostata_causa" text;--> statement-breakpoint
ALTER TABLE "prenotazioni" ADD COLUMN "spostata_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "prenotazioni" ADD COLUMN "bici_assente_avvisata_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "prenotazioni" ADD COLUMN "aspetta_bici_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "segnalazioni_danni" ADD COLUMN "momento" text DEFAULT 'riconsegna' NOT NULL;--> statement-breakpoint
ALTER TABLE "attese" ADD COLUMN "prima_in_fila" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "prenotazioni" ADD CONSTRAINT "prenotazioni_spostata_da_bici_id_biciclette_id_fk" FOREIGN KEY ("spostata_da_bici_id") REFERENCES "public"."biciclette"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "segnalazioni_una_per_prenotazione" ON "segnalazioni_danni" USING btree ("prenotazione_id","momento","bici_id");--> statement-breakpoint
ALTER TABLE "prenotazioni" ADD CONSTRAINT "prenotazioni_spostata_causa_valid" CHECK ("prenotazioni"."spostata_causa" is null or "prenotazioni"."spostata_causa" in ('ritardo', 'guasto', 'problema'));--> statement-breakpoint
ALTER TABLE "prenotazioni" ADD CONSTRAINT "prenotazioni_motivo_valid" CHECK ("prenotazioni"."motivo_cancellazione" is null or ("prenotazioni"."stato" = 'cancellata' and "prenotazioni"."motivo_cancellazione" in ('utente', 'admin', 'pagamento_scaduto', 'mancato_ritiro', 'chiusura', 'manutenzione', 'bici_non_rientrata', 'bici_guasta')));--> statement-breakpoint
ALTER TABLE "segnalazioni_danni" ADD CONSTRAINT "segnalazioni_momento_valid" CHECK ("segnalazioni_danni"."momento" in ('ritiro', 'riconsegna'));