-- What the database does by itself for the sedi: the live definition, applied by db/migrate.ts.

-- A row given without its sede goes to the first open sede (issue 47): bikes, people, waits and rack
-- links written as before sedi existed land where an install with one sede has them all. Used by the
-- BEFORE INSERT triggers of biciclette (bikes), users (users), attese (waitlist), rastrelliera_link (rack).
CREATE OR REPLACE FUNCTION bicielis_sede_predefinita() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.sede_id IS NULL THEN
    NEW.sede_id := (SELECT min(s.id) FROM sedi s WHERE s.archiviata_at IS NULL);
  END IF;
  RETURN NEW;
END $$;
