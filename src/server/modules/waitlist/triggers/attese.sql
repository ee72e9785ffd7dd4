-- What the database does by itself on `attese`: the live definition, applied by db/migrate.ts.

-- Freed time is one event (decision 035): recorded in the change's transaction, the dispatchers told by NOTIFY
-- bicielis_tempo_liberato. Called by the triggers of prenotazioni, biciclette, manutenzioni, chiusure, users, attese.
-- The offer pass sets bicielis.offer_pass: what it frees it offers in the same pass.
CREATE OR REPLACE FUNCTION bicielis_free_time(bici integer, da timestamptz, a timestamptz, motivo text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF coalesce(current_setting('bicielis.offer_pass', true), '') = 'on' THEN
    RETURN;
  END IF;
  INSERT INTO tempo_liberato (bici_id, inizio, fine, motivo) VALUES (bici, da, a, motivo);
  PERFORM pg_notify('bicielis_tempo_liberato', '');
END $$;

-- A wait joined: a bike freed between the join's check and its insert is offered at once.
CREATE OR REPLACE FUNCTION bicielis_wait_joined() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM bicielis_free_time(NULL, NEW.inizio, NEW.fine, 'attesa_insert');
  RETURN NULL;
END $$;
CREATE OR REPLACE TRIGGER attese_tempo_liberato AFTER INSERT ON attese FOR EACH ROW EXECUTE FUNCTION bicielis_wait_joined();

-- Given without a sede, the first open sede (bicielis_sede_predefinita is in sedi/triggers/sedi.sql, issue 47).
CREATE OR REPLACE TRIGGER attese_sede_predefinita BEFORE INSERT ON attese
  FOR EACH ROW EXECUTE FUNCTION bicielis_sede_predefinita();
