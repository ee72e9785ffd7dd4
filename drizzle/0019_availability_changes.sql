CREATE TABLE "disponibilita_modifiche" (
	"xid" bigint PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
-- Decision 040: every transaction that changes what the availability read depends on leaves
-- its transaction id here, so that a process holding the fleet's picture read under a snapshot
-- can ask, in one indexed query, whether that picture is still what PostgreSQL holds. Triggers,
-- so that no writer can forget; one row per transaction (the first change inserts it).
CREATE OR REPLACE FUNCTION bicielis_availability_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO disponibilita_modifiche (xid) VALUES (pg_current_xact_id()::text::bigint) ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER prenotazioni_disponibilita AFTER INSERT OR UPDATE OR DELETE ON "prenotazioni"
  FOR EACH ROW EXECUTE FUNCTION bicielis_availability_changed();--> statement-breakpoint
CREATE TRIGGER prenotazioni_disponibilita_truncate AFTER TRUNCATE ON "prenotazioni"
  FOR EACH STATEMENT EXECUTE FUNCTION bicielis_availability_changed();--> statement-breakpoint
CREATE TRIGGER pagamenti_disponibilita AFTER INSERT OR UPDATE OR DELETE ON "pagamenti"
  FOR EACH ROW EXECUTE FUNCTION bicielis_availability_changed();--> statement-breakpoint
CREATE TRIGGER pagamenti_disponibilita_truncate AFTER TRUNCATE ON "pagamenti"
  FOR EACH STATEMENT EXECUTE FUNCTION bicielis_availability_changed();--> statement-breakpoint
CREATE TRIGGER biciclette_disponibilita AFTER INSERT OR UPDATE OR DELETE ON "biciclette"
  FOR EACH ROW EXECUTE FUNCTION bicielis_availability_changed();--> statement-breakpoint
CREATE TRIGGER biciclette_disponibilita_truncate AFTER TRUNCATE ON "biciclette"
  FOR EACH STATEMENT EXECUTE FUNCTION bicielis_availability_changed();--> statement-breakpoint
CREATE TRIGGER manutenzioni_disponibilita AFTER INSERT OR UPDATE OR DELETE ON "manutenzioni"
  FOR EACH ROW EXECUTE FUNCTION bicielis_availability_changed();--> statement-breakpoint
CREATE TRIGGER manutenzioni_disponibilita_truncate AFTER TRUNCATE ON "manutenzioni"
  FOR EACH STATEMENT EXECUTE FUNCTION bicielis_availability_changed();
