CREATE TABLE "tempo_liberato" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"bici_id" integer,
	"inizio" timestamp with time zone,
	"fine" timestamp with time zone,
	"motivo" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
-- Freed time is one event (issue 31, decision 035). Every change that can give a bike's time
-- to a waitlist records it here, in its own transaction, and tells the dispatchers
-- (modules/waitlist/dispatcher.ts) on channel bicielis_tempo_liberato; one of them claims the
-- rows after the commit and runs the offer pass. Triggers, so that no writer can forget.
-- The offer pass itself sets bicielis.offer_pass: what it frees it offers in the same pass.
CREATE OR REPLACE FUNCTION bicielis_free_time(bici integer, da timestamptz, a timestamptz, motivo text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF coalesce(current_setting('bicielis.offer_pass', true), '') = 'on' THEN
    RETURN;
  END IF;
  INSERT INTO tempo_liberato (bici_id, inizio, fine, motivo) VALUES (bici, da, a, motivo);
  PERFORM pg_notify('bicielis_tempo_liberato', '');
END $$;--> statement-breakpoint
-- A booking or an offer that stops holding its time: cancelled, completed, deleted, moved to
-- another bike or window. Never on insert (the booking path is hot), and only on updates of
-- the columns that hold time, and only when the row held it.
CREATE OR REPLACE FUNCTION bicielis_booking_freed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM bicielis_free_time(OLD.bici_id, OLD.inizio, OLD.fine, 'prenotazione_' || lower(TG_OP));
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER prenotazioni_tempo_liberato_upd AFTER UPDATE OF stato, bici_id, inizio, fine ON "prenotazioni"
  FOR EACH ROW WHEN (OLD.stato IN ('attiva', 'offerta') AND (
    NEW.stato NOT IN ('attiva', 'offerta') OR NEW.bici_id IS DISTINCT FROM OLD.bici_id
    OR NEW.inizio > OLD.inizio OR NEW.fine < OLD.fine))
  EXECUTE FUNCTION bicielis_booking_freed();--> statement-breakpoint
CREATE TRIGGER prenotazioni_tempo_liberato_del AFTER DELETE ON "prenotazioni"
  FOR EACH ROW WHEN (OLD.stato IN ('attiva', 'offerta'))
  EXECUTE FUNCTION bicielis_booking_freed();--> statement-breakpoint
-- A bike whose state changes whether it can be booked at all (an admin's maintenance or out of
-- service, and back): its time is freed, or its offers are to be withdrawn. The life cycle's
-- own marks (prenotata, planned manutenzione: stato_auto) keep it bookable and record nothing.
CREATE OR REPLACE FUNCTION bicielis_bike_bookable_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM bicielis_free_time(NEW.id, NULL, NULL, 'bicicletta_' || NEW.stato);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER biciclette_tempo_liberato AFTER UPDATE OF stato, stato_auto ON "biciclette"
  FOR EACH ROW WHEN ((OLD.stato IN ('disponibile', 'prenotata') OR (OLD.stato = 'manutenzione' AND OLD.stato_auto))
    IS DISTINCT FROM (NEW.stato IN ('disponibile', 'prenotata') OR (NEW.stato = 'manutenzione' AND NEW.stato_auto)))
  EXECUTE FUNCTION bicielis_bike_bookable_changed();--> statement-breakpoint
CREATE OR REPLACE FUNCTION bicielis_bike_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM bicielis_free_time(NEW.id, NULL, NULL, 'bicicletta_nuova');
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER biciclette_tempo_liberato_ins AFTER INSERT ON "biciclette"
  FOR EACH ROW WHEN (NEW.stato IN ('disponibile', 'prenotata'))
  EXECUTE FUNCTION bicielis_bike_added();--> statement-breakpoint
-- Planned maintenance added, moved, shortened or removed: the time it leaves goes to the
-- lines, the offers it now covers are withdrawn. A few rows a month: every change counts.
CREATE OR REPLACE FUNCTION bicielis_maintenance_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM bicielis_free_time(NEW.bici_id, NEW.inizio, NEW.fine, 'manutenzione_insert');
  ELSE
    PERFORM bicielis_free_time(OLD.bici_id, OLD.inizio, OLD.fine, 'manutenzione_' || lower(TG_OP));
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER manutenzioni_tempo_liberato AFTER INSERT OR UPDATE OR DELETE ON "manutenzioni"
  FOR EACH ROW EXECUTE FUNCTION bicielis_maintenance_changed();--> statement-breakpoint
-- A closure added, changed or removed: offers on closed days withdrawn, reopened days offered.
CREATE OR REPLACE FUNCTION bicielis_closure_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM bicielis_free_time(NULL, NULL, NULL, 'chiusura_' || lower(TG_OP));
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER chiusure_tempo_liberato AFTER INSERT OR UPDATE OR DELETE ON "chiusure"
  FOR EACH STATEMENT EXECUTE FUNCTION bicielis_closure_changed();--> statement-breakpoint
-- A user deactivated or deleted: their waits end and their offers pass on.
CREATE OR REPLACE FUNCTION bicielis_user_gone() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM bicielis_free_time(NULL, NULL, NULL, 'utente_' || lower(TG_OP));
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER users_tempo_liberato_upd AFTER UPDATE OF attiva ON "users"
  FOR EACH ROW WHEN (OLD.attiva AND NOT NEW.attiva) EXECUTE FUNCTION bicielis_user_gone();--> statement-breakpoint
CREATE TRIGGER users_tempo_liberato_del AFTER DELETE ON "users"
  FOR EACH ROW WHEN (OLD.attiva) EXECUTE FUNCTION bicielis_user_gone();--> statement-breakpoint
-- A wait joined: a bike freed between the join's check and its insert is offered at once.
CREATE OR REPLACE FUNCTION bicielis_wait_joined() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM bicielis_free_time(NULL, NEW.inizio, NEW.fine, 'attesa_insert');
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER attese_tempo_liberato AFTER INSERT ON "attese"
  FOR EACH ROW EXECUTE FUNCTION bicielis_wait_joined();
