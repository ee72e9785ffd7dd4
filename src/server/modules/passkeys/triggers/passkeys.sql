-- What the database does by itself on `passkeys` (issue 49): the live definition, applied by db/migrate.ts.

-- The last way in stays: a person with no password and no college account keeps their last passkey.
CREATE OR REPLACE FUNCTION bicielis_passkey_removed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM bicielis_check_way_in(OLD.user_id);
  RETURN NULL;
END $$;
CREATE OR REPLACE TRIGGER passkeys_keep_way_in AFTER DELETE ON passkeys
  FOR EACH ROW EXECUTE FUNCTION bicielis_passkey_removed();
