-- What the database does by itself on `chiusure`: the live definition, applied by db/migrate.ts.

-- Every process keeps the closures in memory: NOTIFY bicielis_regole (the function is in rules/triggers/regole.sql).
CREATE OR REPLACE TRIGGER chiusure_notify AFTER INSERT OR UPDATE OR DELETE ON chiusure
  FOR EACH STATEMENT EXECUTE FUNCTION bicielis_rules_changed();

-- A closure added, changed or removed: offers on closed days withdrawn, reopened days offered.
CREATE OR REPLACE FUNCTION bicielis_closure_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM bicielis_free_time(NULL, NULL, NULL, 'chiusura_' || lower(TG_OP));
  RETURN NULL;
END $$;
CREATE OR REPLACE TRIGGER chiusure_tempo_liberato AFTER INSERT OR UPDATE OR DELETE ON chiusure
  FOR EACH STATEMENT EXECUTE FUNCTION bicielis_closure_changed();
