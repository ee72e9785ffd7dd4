CREATE TABLE "stats_delta" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"day" date NOT NULL,
	"kind" text NOT NULL,
	"key" integer NOT NULL,
	"rides" integer DEFAULT 0 NOT NULL,
	"cancellations" integer DEFAULT 0 NOT NULL,
	"seconds" bigint DEFAULT 0 NOT NULL,
	"revenue_cents" bigint DEFAULT 0 NOT NULL,
	"released_holds" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE INDEX "stats_delta_kind_day_idx" ON "stats_delta" USING btree ("kind","day");--> statement-breakpoint
CREATE INDEX "prenotazioni_no_show_day_idx" ON "prenotazioni" USING btree ("data_prenotazione") WHERE "prenotazioni"."motivo_cancellazione" = 'mancato_ritiro';
--> statement-breakpoint
-- Hand-written (decision 023): the statistics' rollup leaves the writers' lock graph. The
-- triggers of 0005 keep their names and their arithmetic, but now only INSERT their deltas
-- into stats_delta (no unique key: an insert never waits for another transaction). The
-- `stats-fold` job moves the deltas into stats_giornaliere every minute; reads add the
-- deltas not yet folded. Before, every booking or payment write upserted shared rows such as
-- ('day', D, 0) inside its transaction and held them to its commit (deadlocks, issue 19).
CREATE FUNCTION stats_booking_deltas(rows prenotazioni[], sign integer)
RETURNS TABLE (day date, kind text, key integer, rides bigint, cancellations bigint, seconds bigint)
LANGUAGE sql STABLE AS $$
  SELECT b.data_prenotazione, d.kind, d.key,
         sum(CASE WHEN b.stato <> 'cancellata' THEN sign ELSE 0 END),
         sum(CASE WHEN b.stato = 'cancellata' THEN sign ELSE 0 END),
         sum(CASE WHEN b.stato <> 'cancellata' THEN sign * round(extract(epoch FROM b.fine - b.inizio))::bigint ELSE 0 END)
    FROM unnest(rows) b
   CROSS JOIN LATERAL (VALUES ('bike', b.bici_id), ('day', 0), ('hour', left(b.orario_inizio, 2)::int),
                              ('res', CASE WHEN b.residente THEN 1 ELSE 0 END)) d(kind, key)
   GROUP BY 1, 2, 3
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION stats_bookings_delta() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  added prenotazioni[];
  removed prenotazioni[];
BEGIN
  -- A transition table exists only for the operations that have it.
  IF TG_OP IN ('INSERT', 'UPDATE') THEN SELECT array_agg(r) INTO added FROM new_rows r; END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN SELECT array_agg(r) INTO removed FROM old_rows r; END IF;
  INSERT INTO stats_delta (day, kind, key, rides, cancellations, seconds)
  SELECT x.day, x.kind, x.key, sum(x.rides), sum(x.cancellations), sum(x.seconds)
    FROM (SELECT * FROM stats_booking_deltas(added, 1) UNION ALL SELECT * FROM stats_booking_deltas(removed, -1)) x
   GROUP BY 1, 2, 3
  HAVING sum(x.rides) <> 0 OR sum(x.cancellations) <> 0 OR sum(x.seconds) <> 0;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION stats_payment_deltas(rows pagamenti[], sign integer)
RETURNS TABLE (day date, revenue_cents bigint, released_holds bigint)
LANGUAGE sql STABLE AS $$
  SELECT coalesce(r.booking_date, p.data_prenotazione),
         sum(CASE WHEN r.status = 'completed' THEN sign * r.amount ELSE 0 END),
         sum(CASE WHEN r.status = 'failed' THEN sign ELSE 0 END)
    FROM unnest(rows) r
    LEFT JOIN prenotazioni p ON p.id = r.prenotazione_id
   WHERE coalesce(r.booking_date, p.data_prenotazione) IS NOT NULL
   GROUP BY 1
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION stats_payments_delta() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  added pagamenti[];
  removed pagamenti[];
BEGIN
  IF TG_OP IN ('INSERT', 'UPDATE') THEN SELECT array_agg(r) INTO added FROM new_rows r; END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN SELECT array_agg(r) INTO removed FROM old_rows r; END IF;
  INSERT INTO stats_delta (day, kind, key, revenue_cents, released_holds)
  SELECT x.day, 'day', 0, sum(x.revenue_cents), sum(x.released_holds)
    FROM (SELECT * FROM stats_payment_deltas(added, 1) UNION ALL SELECT * FROM stats_payment_deltas(removed, -1)) x
   GROUP BY 1
  HAVING sum(x.revenue_cents) <> 0 OR sum(x.released_holds) <> 0;
  RETURN NULL;
END $$;
