-- Hand-written: the availability answer cache is gone (decision 018, "Follow-up"), so nobody
-- LISTENs on `bicielis_availability` any more; the statement-level triggers of 0002 that
-- NOTIFY it on every change of bikes and bookings are dropped, and their function with them.
-- The session cache's notifications (0001, channel `bicielis_auth`) stay. Triggers are not
-- in schema.ts: the snapshot is a copy of 0006's.
DROP TRIGGER IF EXISTS "biciclette_notify_availability" ON "biciclette";
--> statement-breakpoint
DROP TRIGGER IF EXISTS "prenotazioni_notify_availability" ON "prenotazioni";
--> statement-breakpoint
DROP FUNCTION IF EXISTS bicielis_notify_availability();
