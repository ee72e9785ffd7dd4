-- What the database does by itself on `rastrelliera_link`: the live definition, applied by db/migrate.ts.

-- Given without a sede, the first open sede (bicielis_sede_predefinita is in sedi/triggers/sedi.sql, issue 47).
CREATE OR REPLACE TRIGGER rastrelliera_link_sede_predefinita BEFORE INSERT ON rastrelliera_link
  FOR EACH ROW EXECUTE FUNCTION bicielis_sede_predefinita();
