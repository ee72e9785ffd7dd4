-- The availability cache of every app process (src/server/modules/bookings/service.ts) is
-- told, right after the commit, that bikes or bookings changed, whoever changed them (this
-- process, another one, the CLI, psql). Statement-level triggers: one notification per
-- statement, not per row, and PostgreSQL folds identical ones within a transaction into
-- one. The payload names the table; every listener empties its whole cache anyway.
-- docs/decisions/011-availability-cache-coherence.md.
CREATE FUNCTION bicielis_notify_availability() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('bicielis_availability', TG_TABLE_NAME);
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Every column of a bike is part of the answer (numero, modello, stato, updated_at).
CREATE TRIGGER biciclette_notify_availability AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON biciclette
  FOR EACH STATEMENT EXECUTE FUNCTION bicielis_notify_availability();
--> statement-breakpoint
-- Of a booking only the bike, the state and the instants matter (not destinazione, …).
CREATE TRIGGER prenotazioni_notify_availability
  AFTER INSERT OR DELETE OR TRUNCATE OR UPDATE OF bici_id, stato, inizio, fine ON prenotazioni
  FOR EACH STATEMENT EXECUTE FUNCTION bicielis_notify_availability();
