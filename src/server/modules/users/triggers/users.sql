-- What the database does by itself on `users`: the live definition, applied by db/migrate.ts.
-- writes contatori_delta (owner stats): the count of people the /admin summary shows, as deltas (issue 51).

-- A change to what a session shows or allows reaches every process's session cache at the commit.
CREATE OR REPLACE FUNCTION bicielis_notify_user_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('bicielis_auth', 'u:' || NEW.id);
  RETURN NULL;
END $$;
CREATE OR REPLACE TRIGGER users_notify_changed AFTER UPDATE ON users
  FOR EACH ROW WHEN (OLD.attiva IS DISTINCT FROM NEW.attiva OR OLD.ruolo IS DISTINCT FROM NEW.ruolo
    OR OLD.nome IS DISTINCT FROM NEW.nome OR OLD.cognome IS DISTINCT FROM NEW.cognome OR OLD.email IS DISTINCT FROM NEW.email
    OR OLD.is_residente IS DISTINCT FROM NEW.is_residente OR OLD.sigla_residente IS DISTINCT FROM NEW.sigla_residente
    OR OLD.totp_attivo_at IS DISTINCT FROM NEW.totp_attivo_at OR OLD.sede_id IS DISTINCT FROM NEW.sede_id
    OR OLD.passkey_secondo_fattore IS DISTINCT FROM NEW.passkey_secondo_fattore)
  EXECUTE FUNCTION bicielis_notify_user_changed();

-- A user deactivated or deleted: their waits end and their offers pass on.
CREATE OR REPLACE FUNCTION bicielis_user_gone() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM bicielis_free_time(NULL, NULL, NULL, 'utente_' || lower(TG_OP));
  RETURN NULL;
END $$;
CREATE OR REPLACE TRIGGER users_tempo_liberato_upd AFTER UPDATE OF attiva ON users
  FOR EACH ROW WHEN (OLD.attiva AND NOT NEW.attiva) EXECUTE FUNCTION bicielis_user_gone();
CREATE OR REPLACE TRIGGER users_tempo_liberato_del AFTER DELETE ON users FOR EACH ROW WHEN (OLD.attiva) EXECUTE FUNCTION bicielis_user_gone();

-- Given without a sede, the first open sede (bicielis_sede_predefinita is in sedi/triggers/sedi.sql, issue 47).
CREATE OR REPLACE TRIGGER users_sede_predefinita BEFORE INSERT ON users
  FOR EACH ROW EXECUTE FUNCTION bicielis_sede_predefinita();

-- Issue 49: a person keeps at least one way in: a password, a passkey or a college account. Called
-- by the triggers of passkeys.sql and identita_esterne.sql after a removal; a deleted person has
-- none to keep. Refused as a check violation named users_una_via_di_accesso (http/errors.ts).
CREATE OR REPLACE FUNCTION bicielis_check_way_in(p_user integer) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM users u WHERE u.id = p_user AND u.password_hash IS NULL)
     AND NOT EXISTS (SELECT 1 FROM passkeys p WHERE p.user_id = p_user)
     AND NOT EXISTS (SELECT 1 FROM identita_esterne i WHERE i.user_id = p_user) THEN
    RAISE EXCEPTION 'user % would have no way to log in', p_user
      USING ERRCODE = 'check_violation', CONSTRAINT = 'users_una_via_di_accesso';
  END IF;
END $$;

-- The count of people for the /admin summary (issue 51, decision 065): a statement's rows added or removed, appended to
-- contatori_delta and folded by the stats-fold job (as the bookings' count in bookings/triggers/prenotazioni.sql).
CREATE OR REPLACE FUNCTION bicielis_user_count_delta() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO contatori_delta (nome, delta) SELECT 'utenti', count(*) FROM new_rows HAVING count(*) > 0;
  ELSE
    INSERT INTO contatori_delta (nome, delta) SELECT 'utenti', -count(*) FROM old_rows HAVING count(*) > 0;
  END IF;
  RETURN NULL;
END $$;
CREATE OR REPLACE TRIGGER users_conteggio_ins AFTER INSERT ON users
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION bicielis_user_count_delta();
CREATE OR REPLACE TRIGGER users_conteggio_del AFTER DELETE ON users
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION bicielis_user_count_delta();

-- Emptied, the table counts nobody (bicielis_count_reset is in bookings/triggers/prenotazioni.sql).
CREATE OR REPLACE TRIGGER users_conteggio_truncate AFTER TRUNCATE ON users
  FOR EACH STATEMENT EXECUTE FUNCTION bicielis_count_reset('utenti');
