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

-- Every process keeps the open sedi with the rules (rules/store.ts: the availability read and the
-- window check refuse an archived or unknown one without a query, GET /api/config names them for the
-- registration and the cards): a change tells them all at once.
CREATE OR REPLACE TRIGGER sedi_notify AFTER INSERT OR UPDATE OR DELETE ON sedi
  FOR EACH STATEMENT EXECUTE FUNCTION bicielis_rules_changed();

