-- What the database does by itself on `incarichi` (issue 48): the live definition, applied by db/migrate.ts.

-- A role given or taken away reaches every process's session cache at the commit, as users.sql does.
CREATE OR REPLACE FUNCTION bicielis_notify_incarichi_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM pg_notify('bicielis_auth', 'u:' || OLD.user_id);
  ELSE
    PERFORM pg_notify('bicielis_auth', 'u:' || NEW.user_id);
    IF TG_OP = 'UPDATE' AND OLD.user_id IS DISTINCT FROM NEW.user_id THEN
      PERFORM pg_notify('bicielis_auth', 'u:' || OLD.user_id);
    END IF;
  END IF;
  RETURN NULL;
END $$;
CREATE OR REPLACE TRIGGER incarichi_notify_changed AFTER INSERT OR UPDATE OR DELETE ON incarichi
  FOR EACH ROW EXECUTE FUNCTION bicielis_notify_incarichi_changed();
