CREATE TABLE "codici_corsa" (
	"prenotazione_id" integer PRIMARY KEY NOT NULL,
	"codice_nuovo" text,
	"mostrato_at" timestamp with time zone,
	"pin" text,
	"pin_id" text,
	"pin_stato" text,
	"valido_da" timestamp with time zone,
	"valido_fino" timestamp with time zone,
	"tentativi" integer DEFAULT 0 NOT NULL,
	"prossimo_tentativo" timestamp with time zone,
	"ultimo_errore" text,
	CONSTRAINT "codici_corsa_codice_nuovo_format" CHECK ("codici_corsa"."codice_nuovo" is null or "codici_corsa"."codice_nuovo" ~ '^[0-9]{4}$'),
	CONSTRAINT "codici_corsa_pin_stato_valid" CHECK ("codici_corsa"."pin_stato" is null or "codici_corsa"."pin_stato" in ('da_creare', 'attivo', 'da_estendere', 'da_revocare', 'revocato'))
);
--> statement-breakpoint
CREATE TABLE "lucchetti" (
	"bici_id" integer PRIMARY KEY NOT NULL,
	"tipo" text NOT NULL,
	"codice" text,
	"id_lucchetto" text,
	"da_cambiare_dal" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "lucchetti_tipo_valid" CHECK ("lucchetti"."tipo" in ('combinazione', 'smart')),
	CONSTRAINT "lucchetti_shape" CHECK (("lucchetti"."tipo" = 'combinazione' and "lucchetti"."codice" ~ '^[0-9]{4}$' and "lucchetti"."id_lucchetto" is null)
       or ("lucchetti"."tipo" = 'smart' and "lucchetti"."codice" is null and "lucchetti"."da_cambiare_dal" is null
           and length(btrim("lucchetti"."id_lucchetto")) between 1 and 100))
);
--> statement-breakpoint
ALTER TABLE "codici_corsa" ADD CONSTRAINT "codici_corsa_prenotazione_id_prenotazioni_id_fk" FOREIGN KEY ("prenotazione_id") REFERENCES "public"."prenotazioni"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lucchetti" ADD CONSTRAINT "lucchetti_bici_id_biciclette_id_fk" FOREIGN KEY ("bici_id") REFERENCES "public"."biciclette"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "codici_corsa_pin_due_idx" ON "codici_corsa" USING btree ("prossimo_tentativo") WHERE "codici_corsa"."pin_stato" in ('da_creare', 'da_estendere', 'da_revocare');--> statement-breakpoint
-- Decision 044, written by hand: the booking's life drives its bike's lock in the booking's own
-- transaction, so that no writer of a return, a cancel, a release or a delete can forget it.
-- Each trigger has a WHEN clause: an insert, or an update that does not end a booking, runs none.
-- Lock order (decision 023): these write `lucchetti` after the booking's row.
--
-- The return makes the code drawn at the pick-up (codici_corsa.codice_nuovo) the lock's code: the
-- next booking reads it the moment the return commits. A code set at the return is no longer the
-- one that was shown, so the `Codice da cambiare` mark goes with the old code.
CREATE OR REPLACE FUNCTION bicielis_lock_code_rotated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE lucchetti l SET codice = c.codice_nuovo, da_cambiare_dal = NULL, updated_at = now()
    FROM codici_corsa c
   WHERE c.prenotazione_id = NEW.id AND c.codice_nuovo IS NOT NULL
     AND l.bici_id = NEW.bici_id AND l.tipo = 'combinazione';
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER prenotazioni_lucchetto_riconsegna AFTER UPDATE OF stato ON "prenotazioni"
  FOR EACH ROW WHEN (OLD.stato = 'attiva' AND NEW.stato = 'completata' AND NEW.ritirata_at IS NOT NULL)
  EXECUTE FUNCTION bicielis_lock_code_rotated();--> statement-breakpoint
-- A code shown to the owner of a booking that ends without a pick-up (cancelled for any reason,
-- a no-show release included, or deleted) is known to someone who did not ride: the lock is
-- marked `Codice da cambiare` until an admin sets a new code. BEFORE DELETE: the booking's
-- codici_corsa row is still there (its foreign key cascades).
CREATE OR REPLACE FUNCTION bicielis_lock_code_exposed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  b prenotazioni%ROWTYPE;
BEGIN
  IF TG_OP = 'DELETE' THEN b := OLD; ELSE b := NEW; END IF;
  UPDATE lucchetti l SET da_cambiare_dal = now(), updated_at = now()
   WHERE l.bici_id = b.bici_id AND l.tipo = 'combinazione' AND l.da_cambiare_dal IS NULL
     AND EXISTS (SELECT 1 FROM codici_corsa c WHERE c.prenotazione_id = b.id AND c.mostrato_at IS NOT NULL);
  IF TG_OP = 'DELETE' THEN RETURN OLD; END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER prenotazioni_lucchetto_cancellata AFTER UPDATE OF stato ON "prenotazioni"
  FOR EACH ROW WHEN (OLD.stato <> 'cancellata' AND NEW.stato = 'cancellata' AND NEW.ritirata_at IS NULL)
  EXECUTE FUNCTION bicielis_lock_code_exposed();--> statement-breakpoint
CREATE TRIGGER prenotazioni_lucchetto_eliminata BEFORE DELETE ON "prenotazioni"
  FOR EACH ROW WHEN (OLD.stato = 'attiva' AND OLD.ritirata_at IS NULL)
  EXECUTE FUNCTION bicielis_lock_code_exposed();
