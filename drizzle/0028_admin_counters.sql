CREATE TABLE "contatori" (
	"nome" text PRIMARY KEY NOT NULL,
	"valore" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "contatori_delta" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"nome" text NOT NULL,
	"delta" bigint NOT NULL
);
--> statement-breakpoint
-- Issue 51, decision 065: the counters start from the rows there; from here on the triggers of
-- bookings/triggers/prenotazioni.sql and users/triggers/users.sql keep them (deltas, folded by stats-fold).
INSERT INTO "contatori" ("nome", "valore") VALUES
  ('prenotazioni_attive', (SELECT count(*) FROM "prenotazioni" WHERE "stato" = 'attiva')),
  ('utenti', (SELECT count(*) FROM "users"));
