-- What the database does by itself on `identita_esterne` (issue 49): the live definition, applied by db/migrate.ts.

-- The last way in stays: a person with no password and no passkey keeps their college account.
CREATE OR REPLACE FUNCTION bicielis_identity_removed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM bicielis_check_way_in(OLD.user_id);
  RETURN NULL;
END $$;
CREATE OR REPLACE TRIGGER identita_esterne_keep_way_in AFTER DELETE ON identita_esterne
  FOR EACH ROW EXECUTE FUNCTION bicielis_identity_removed();
