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
