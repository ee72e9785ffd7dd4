-- The session cache of every app process (src/server/modules/auth/session-cache.ts) is told,
-- right after the commit, about sessions that end and users whose access changes.
CREATE FUNCTION bicielis_notify_session_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('bicielis_auth', 's:' || OLD.token_hash);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER sessions_notify_deleted AFTER DELETE ON sessions
  FOR EACH ROW EXECUTE FUNCTION bicielis_notify_session_deleted();
--> statement-breakpoint
CREATE FUNCTION bicielis_notify_user_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('bicielis_auth', 'u:' || NEW.id);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER users_notify_changed AFTER UPDATE ON users
  FOR EACH ROW
  WHEN (OLD.attiva IS DISTINCT FROM NEW.attiva OR OLD.ruolo IS DISTINCT FROM NEW.ruolo
     OR OLD.nome IS DISTINCT FROM NEW.nome OR OLD.cognome IS DISTINCT FROM NEW.cognome
     OR OLD.email IS DISTINCT FROM NEW.email OR OLD.is_residente IS DISTINCT FROM NEW.is_residente
     OR OLD.sigla_residente IS DISTINCT FROM NEW.sigla_residente)
  EXECUTE FUNCTION bicielis_notify_user_changed();
