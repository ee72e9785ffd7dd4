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
-- bookings/triggers/prenotazioni.sql and users/triggers/users.sql keep them (deltas, folded by stats-fold),
-- and those of stats/triggers/stats_giornaliere.sql the rollup's totals (its 'day' rows; deltas not folded
-- yet are added by the reads, as the rollup's are).
-- A counter without a row is 0 (a new database holds none).
INSERT INTO "contatori" ("nome", "valore")
SELECT "nome", "valore" FROM (VALUES
  ('prenotazioni_attive', (SELECT count(*) FROM "prenotazioni" WHERE "stato" = 'attiva')),
  ('utenti', (SELECT count(*) FROM "users")),
  ('corse', (SELECT coalesce(sum("rides"), 0) FROM "stats_giornaliere" WHERE "kind" = 'day')),
  ('cancellazioni', (SELECT coalesce(sum("cancellations"), 0) FROM "stats_giornaliere" WHERE "kind" = 'day'))) v("nome", "valore")
WHERE "valore" <> 0;
