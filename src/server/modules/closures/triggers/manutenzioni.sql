-- What the database does by itself on `manutenzioni`: the live definition, applied by db/migrate.ts.

-- The fleet's picture changed (bicielis_availability_changed is in bookings/triggers/prenotazioni.sql).
CREATE OR REPLACE TRIGGER manutenzioni_disponibilita AFTER INSERT OR UPDATE OR DELETE ON manutenzioni
  FOR EACH ROW EXECUTE FUNCTION bicielis_availability_changed();
CREATE OR REPLACE TRIGGER manutenzioni_disponibilita_truncate AFTER TRUNCATE ON manutenzioni
  FOR EACH STATEMENT EXECUTE FUNCTION bicielis_availability_changed();

-- A planned maintenance added, moved or removed: the time it leaves goes to the waitlist, offers it covers are withdrawn.
CREATE OR REPLACE FUNCTION bicielis_maintenance_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM bicielis_free_time(NEW.bici_id, NEW.inizio, NEW.fine, 'manutenzione_insert');
  ELSE
    PERFORM bicielis_free_time(OLD.bici_id, OLD.inizio, OLD.fine, 'manutenzione_' || lower(TG_OP));
  END IF;
  RETURN NULL;
END $$;
CREATE OR REPLACE TRIGGER manutenzioni_tempo_liberato AFTER INSERT OR UPDATE OR DELETE ON manutenzioni
  FOR EACH ROW EXECUTE FUNCTION bicielis_maintenance_changed();
