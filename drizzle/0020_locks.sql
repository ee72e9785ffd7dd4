CREATE TABLE "codici_corsa" (
	"prenotazione_id" integer PRIMARY KEY NOT NULL,
	"codice_nuovo" text,
	"mostrato_at" timestamp with time zone,
	"id_lucchetto" text,
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
ALTER TABLE "lucchetti" ADD CONSTRAINT "lucchetti_bici_id_biciclette_id_fk" FOREIGN KEY ("bici_id") REFERENCES "public"."biciclette"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "codici_corsa_pin_due_idx" ON "codici_corsa" USING btree ("prossimo_tentativo") WHERE "codici_corsa"."pin_stato" in ('da_creare', 'da_estendere', 'da_revocare');--> statement-breakpoint
-- Decision 044, written by hand: the booking's life drives its bike's lock in the booking's own
-- transaction, so that no writer of a booking, a return, a cancel, a release or a delete can
-- forget it. Lock order (decision 023): these write `lucchetti` and `codici_corsa` after the
-- booking's row. Each trigger on an update has a WHEN clause: an update that neither ends a
-- booking nor moves its window runs none. The insert's trigger probes `lucchetti` by its key.
--
-- 1. The return makes the code drawn at the pick-up (codici_corsa.codice_nuovo) the lock's code:
-- the next booking reads it the moment the return commits. A code set at the return is no
-- longer the one that was shown, so the `Codice da cambiare` mark goes with the old code.
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
-- 2. A code shown to the owner of a booking that ends without a pick-up (cancelled for any
-- reason, a no-show release included, or deleted) is known to someone who did not ride: the lock
-- is marked `Codice da cambiare` until an admin sets a new code.
CREATE OR REPLACE FUNCTION bicielis_lock_code_exposed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE lucchetti l SET da_cambiare_dal = now(), updated_at = now()
   WHERE l.bici_id = NEW.bici_id AND l.tipo = 'combinazione' AND l.da_cambiare_dal IS NULL
     AND EXISTS (SELECT 1 FROM codici_corsa c WHERE c.prenotazione_id = NEW.id AND c.mostrato_at IS NOT NULL);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER prenotazioni_lucchetto_cancellata AFTER UPDATE OF stato ON "prenotazioni"
  FOR EACH ROW WHEN (OLD.stato <> 'cancellata' AND NEW.stato = 'cancellata' AND NEW.ritirata_at IS NULL)
  EXECUTE FUNCTION bicielis_lock_code_exposed();--> statement-breakpoint
-- 3. Smart locks: a booking made (or an offer accepted) on a smart bike gets its PIN to create,
-- valid from the pick-up window (start − 10 minutes, PICKUP_EARLY_MINUTES) to the end + 15
-- minutes. The dispatcher (locks/pins.ts) calls the provider after the commit, woken by the
-- NOTIFY (sent at the commit only).
CREATE OR REPLACE FUNCTION bicielis_pin_wanted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO codici_corsa (prenotazione_id, id_lucchetto, pin_stato, valido_da, valido_fino)
  SELECT NEW.id, l.id_lucchetto, 'da_creare', NEW.inizio - interval '10 minutes', NEW.fine + interval '15 minutes'
    FROM lucchetti l WHERE l.bici_id = NEW.bici_id AND l.tipo = 'smart'
  ON CONFLICT (prenotazione_id) DO NOTHING;
  IF FOUND THEN PERFORM pg_notify('bicielis_pin', ''); END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER prenotazioni_pin_nuova AFTER INSERT ON "prenotazioni"
  FOR EACH ROW WHEN (NEW.stato = 'attiva')
  EXECUTE FUNCTION bicielis_pin_wanted();--> statement-breakpoint
CREATE TRIGGER prenotazioni_pin_offerta_accettata AFTER UPDATE OF stato ON "prenotazioni"
  FOR EACH ROW WHEN (OLD.stato = 'offerta' AND NEW.stato = 'attiva')
  EXECUTE FUNCTION bicielis_pin_wanted();--> statement-breakpoint
-- 4. A booking's window moved (a closure or a maintenance moving it): its PIN's period follows.
CREATE OR REPLACE FUNCTION bicielis_pin_moved() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE codici_corsa SET valido_da = NEW.inizio - interval '10 minutes', valido_fino = NEW.fine + interval '15 minutes',
         pin_stato = CASE WHEN pin_id IS NULL THEN 'da_creare' ELSE 'da_estendere' END,
         prossimo_tentativo = NULL, tentativi = 0
   WHERE prenotazione_id = NEW.id AND pin_stato IN ('da_creare', 'attivo', 'da_estendere');
  IF FOUND THEN PERFORM pg_notify('bicielis_pin', ''); END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER prenotazioni_pin_spostata AFTER UPDATE OF inizio, fine ON "prenotazioni"
  FOR EACH ROW WHEN (NEW.stato = 'attiva' AND (OLD.inizio <> NEW.inizio OR OLD.fine <> NEW.fine))
  EXECUTE FUNCTION bicielis_pin_moved();--> statement-breakpoint
-- 5. Any end of a booking (return, cancel, no-show release, the life cycle, an admin's release)
-- revokes its PIN: at once when the provider holds none yet, else through the dispatcher.
CREATE OR REPLACE FUNCTION bicielis_pin_ended() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE codici_corsa SET pin_stato = CASE WHEN pin_id IS NULL THEN 'revocato' ELSE 'da_revocare' END,
         prossimo_tentativo = NULL, tentativi = 0
   WHERE prenotazione_id = NEW.id AND pin_stato IN ('da_creare', 'attivo', 'da_estendere');
  IF FOUND THEN PERFORM pg_notify('bicielis_pin', ''); END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER prenotazioni_pin_conclusa AFTER UPDATE OF stato ON "prenotazioni"
  FOR EACH ROW WHEN (OLD.stato = 'attiva' AND NEW.stato IN ('completata', 'cancellata'))
  EXECUTE FUNCTION bicielis_pin_ended();--> statement-breakpoint
-- 6. A booking deleted (an admin's delete, an account's erasure): a shown code not used marks
-- the lock as in 2; its row goes with it, unless the provider holds its PIN, which is revoked
-- first (codici_corsa has no foreign key for that reason; the dispatcher removes the row after).
CREATE OR REPLACE FUNCTION bicielis_ride_code_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.stato = 'attiva' AND OLD.ritirata_at IS NULL THEN
    UPDATE lucchetti l SET da_cambiare_dal = now(), updated_at = now()
     WHERE l.bici_id = OLD.bici_id AND l.tipo = 'combinazione' AND l.da_cambiare_dal IS NULL
       AND EXISTS (SELECT 1 FROM codici_corsa c WHERE c.prenotazione_id = OLD.id AND c.mostrato_at IS NOT NULL);
  END IF;
  DELETE FROM codici_corsa WHERE prenotazione_id = OLD.id AND (pin_id IS NULL OR pin_stato = 'revocato');
  UPDATE codici_corsa SET pin_stato = 'da_revocare', prossimo_tentativo = NULL, tentativi = 0 WHERE prenotazione_id = OLD.id;
  IF FOUND THEN PERFORM pg_notify('bicielis_pin', ''); END IF;
  RETURN OLD;
END $$;--> statement-breakpoint
CREATE TRIGGER prenotazioni_codici_eliminata BEFORE DELETE ON "prenotazioni"
  FOR EACH ROW EXECUTE FUNCTION bicielis_ride_code_deleted();
--> statement-breakpoint
-- 7. A booking moved to another bike (a closure or a maintenance moving it): a PIN held on the
-- first lock is revoked (the dispatcher then makes one on the new bike's smart lock, if any); one
-- not made yet is made on the new lock; a booking that meets a smart lock only now gets its row.
CREATE OR REPLACE FUNCTION bicielis_pin_bike_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  new_lock text;
BEGIN
  SELECT l.id_lucchetto INTO new_lock FROM lucchetti l WHERE l.bici_id = NEW.bici_id AND l.tipo = 'smart';
  UPDATE codici_corsa SET pin_stato = 'da_revocare', prossimo_tentativo = NULL, tentativi = 0
   WHERE prenotazione_id = NEW.id AND pin_id IS NOT NULL AND pin_stato IN ('da_creare', 'attivo', 'da_estendere');
  UPDATE codici_corsa SET id_lucchetto = new_lock, pin = NULL, prossimo_tentativo = NULL, tentativi = 0,
         pin_stato = CASE WHEN new_lock IS NULL THEN 'revocato' ELSE 'da_creare' END
   WHERE prenotazione_id = NEW.id AND pin_id IS NULL AND pin_stato IN ('da_creare', 'attivo', 'da_estendere');
  IF new_lock IS NOT NULL THEN
    INSERT INTO codici_corsa (prenotazione_id, id_lucchetto, pin_stato, valido_da, valido_fino)
    VALUES (NEW.id, new_lock, 'da_creare', NEW.inizio - interval '10 minutes', NEW.fine + interval '15 minutes')
    ON CONFLICT (prenotazione_id) DO UPDATE SET valido_da = excluded.valido_da, valido_fino = excluded.valido_fino
     WHERE codici_corsa.pin_stato IS NULL;
    UPDATE codici_corsa SET id_lucchetto = new_lock, pin_stato = 'da_creare'
     WHERE prenotazione_id = NEW.id AND pin_stato IS NULL;
  END IF;
  PERFORM pg_notify('bicielis_pin', '');
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER prenotazioni_pin_altra_bici AFTER UPDATE OF bici_id ON "prenotazioni"
  FOR EACH ROW WHEN (NEW.stato = 'attiva' AND OLD.bici_id <> NEW.bici_id)
  EXECUTE FUNCTION bicielis_pin_bike_changed();
