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
ALTER TABLE "segnalazioni_danni" ADD CONSTRAINT "segnalazioni_momento_valid" CHECK ("segnalazioni_danni"."momento" in ('ritiro', 'riconsegna'));--> statement-breakpoint
-- A booking moved to another bike before its pick-up (issue 35, decision 045; a planned
-- maintenance's move too): a combination code shown for it was the old bike's, now known to
-- someone who will not ride that bike. The old lock is marked `Codice da cambiare` (as at a
-- cancel, 0020) and the booking's code counts as not shown yet: the new bike's is shown afresh.
CREATE OR REPLACE FUNCTION bicielis_lock_code_moved() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE lucchetti l SET da_cambiare_dal = now(), updated_at = now()
   WHERE l.bici_id = OLD.bici_id AND l.tipo = 'combinazione' AND l.da_cambiare_dal IS NULL
     AND EXISTS (SELECT 1 FROM codici_corsa c WHERE c.prenotazione_id = NEW.id AND c.mostrato_at IS NOT NULL);
  UPDATE codici_corsa SET mostrato_at = NULL WHERE prenotazione_id = NEW.id AND mostrato_at IS NOT NULL;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER prenotazioni_lucchetto_spostata AFTER UPDATE OF bici_id ON "prenotazioni"
  FOR EACH ROW WHEN (OLD.bici_id <> NEW.bici_id AND NEW.ritirata_at IS NULL)
  EXECUTE FUNCTION bicielis_lock_code_moved();
