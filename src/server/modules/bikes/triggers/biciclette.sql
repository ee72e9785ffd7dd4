-- What the database does by itself on `biciclette`: the live definition, applied by db/migrate.ts.

-- The fleet's picture changed (bicielis_availability_changed is in bookings/triggers/prenotazioni.sql).
CREATE OR REPLACE TRIGGER biciclette_disponibilita AFTER INSERT OR UPDATE OR DELETE ON biciclette
  FOR EACH ROW EXECUTE FUNCTION bicielis_availability_changed();
CREATE OR REPLACE TRIGGER biciclette_disponibilita_truncate AFTER TRUNCATE ON biciclette
  FOR EACH STATEMENT EXECUTE FUNCTION bicielis_availability_changed();

-- A bike that becomes bookable or stops being so (an admin's maintenance, out of service, and back) frees its time
-- or withdraws its offers; the life cycle's own marks (prenotata, planned manutenzione: stato_auto) record nothing.
CREATE OR REPLACE FUNCTION bicielis_bike_bookable_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM bicielis_free_time(NEW.id, NULL, NULL, 'bicicletta_' || NEW.stato);
  RETURN NULL;
END $$;
CREATE OR REPLACE TRIGGER biciclette_tempo_liberato AFTER UPDATE OF stato, stato_auto ON biciclette
  FOR EACH ROW WHEN ((OLD.stato IN ('disponibile', 'prenotata') OR (OLD.stato = 'manutenzione' AND OLD.stato_auto))
    IS DISTINCT FROM (NEW.stato IN ('disponibile', 'prenotata') OR (NEW.stato = 'manutenzione' AND NEW.stato_auto)))
  EXECUTE FUNCTION bicielis_bike_bookable_changed();

-- A new bookable bike is freed time for the waitlist.
CREATE OR REPLACE FUNCTION bicielis_bike_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM bicielis_free_time(NEW.id, NULL, NULL, 'bicicletta_nuova');
  RETURN NULL;
END $$;
CREATE OR REPLACE TRIGGER biciclette_tempo_liberato_ins AFTER INSERT ON biciclette
  FOR EACH ROW WHEN (NEW.stato IN ('disponibile', 'prenotata')) EXECUTE FUNCTION bicielis_bike_added();

-- A bike changes sede only once its live bookings and offers (attiva, offerta) have been moved or
-- cancelled (issue 47): a booking stays at its bike's sede, which `prenotazioni_no_overlap` keys on.
CREATE OR REPLACE FUNCTION bicielis_bike_sede_free() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM prenotazioni p WHERE p.bici_id = NEW.id AND p.stato IN ('attiva', 'offerta')) THEN
    RAISE EXCEPTION 'la bici % ha prenotazioni attive nella sua sede', NEW.numero
      USING ERRCODE = 'check_violation', CONSTRAINT = 'biciclette_sede_senza_prenotazioni';
  END IF;
  RETURN NEW;
END $$;
CREATE OR REPLACE TRIGGER biciclette_sede BEFORE UPDATE OF sede_id ON biciclette
  FOR EACH ROW WHEN (OLD.sede_id IS DISTINCT FROM NEW.sede_id) EXECUTE FUNCTION bicielis_bike_sede_free();

-- Given without a sede, the first open sede (bicielis_sede_predefinita is in sedi/triggers/sedi.sql, issue 47).
CREATE OR REPLACE TRIGGER biciclette_sede_predefinita BEFORE INSERT ON biciclette
  FOR EACH ROW EXECUTE FUNCTION bicielis_sede_predefinita();
