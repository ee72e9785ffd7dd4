-- What the database does by itself on `regole`: the live definition, applied by db/migrate.ts.

-- Every process keeps the rules (and the closures: chiusure_notify) in memory: a change tells them all at once.
CREATE OR REPLACE FUNCTION bicielis_rules_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('bicielis_regole', TG_TABLE_NAME);
  RETURN NULL;
END $$;
CREATE OR REPLACE TRIGGER regole_notify AFTER INSERT OR UPDATE OR DELETE ON regole FOR EACH STATEMENT EXECUTE FUNCTION bicielis_rules_changed();
