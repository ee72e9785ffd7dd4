-- What the database does by itself on `sessions`: the live definition, applied by db/migrate.ts.

-- A session that ends leaves every process's session cache (auth/session-cache.ts) at the commit.
CREATE OR REPLACE FUNCTION bicielis_notify_session_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('bicielis_auth', 's:' || OLD.token_hash);
  RETURN NULL;
END $$;
CREATE OR REPLACE TRIGGER sessions_notify_deleted AFTER DELETE ON sessions FOR EACH ROW EXECUTE FUNCTION bicielis_notify_session_deleted();
