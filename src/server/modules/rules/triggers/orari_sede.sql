-- What the database does by itself on `orari_sede`: the live definition, applied by db/migrate.ts.

-- Every process keeps each sede's hours with the rules (issue 47): a change tells them all at once.
CREATE OR REPLACE TRIGGER orari_sede_notify AFTER INSERT OR UPDATE OR DELETE ON orari_sede
  FOR EACH STATEMENT EXECUTE FUNCTION bicielis_rules_changed();
