CREATE TABLE "stats_giornaliere" (
	"day" date NOT NULL,
	"kind" text NOT NULL,
	"key" integer NOT NULL,
	"rides" integer DEFAULT 0 NOT NULL,
	"cancellations" integer DEFAULT 0 NOT NULL,
	"seconds" bigint DEFAULT 0 NOT NULL,
	"revenue_cents" bigint DEFAULT 0 NOT NULL,
	"released_holds" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "stats_giornaliere_kind_day_key_pk" PRIMARY KEY("kind","day","key")
);
--> statement-breakpoint
ALTER TABLE "prenotazioni" ADD COLUMN "residente" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
-- Hand-written (decision 017): the statistics' rollup, kept exact by statement-level
-- triggers with transition tables (one aggregated upsert per statement, its rows locked in
-- key order). A booking counts by its day and start hour (TZ_APP, as chosen), its bike and
-- whether its user was a resident when booking; a payment by its booking's day (or the day
-- copied when the booking was deleted): completed = revenue, failed = hold released.
UPDATE "prenotazioni" p SET "residente" = u."is_residente" FROM "users" u WHERE u."id" = p."user_id" AND u."is_residente";
--> statement-breakpoint
CREATE FUNCTION stats_booking_resident() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.residente := coalesce((SELECT u.is_residente FROM users u WHERE u.id = NEW.user_id), false);
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER prenotazioni_residente BEFORE INSERT ON prenotazioni FOR EACH ROW EXECUTE FUNCTION stats_booking_resident();
--> statement-breakpoint
CREATE FUNCTION stats_bookings_delta() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO stats_giornaliere AS s (day, kind, key, rides, cancellations, seconds)
    SELECT b.data_prenotazione, d.kind, d.key,
           sum(CASE WHEN b.stato <> 'cancellata' THEN b.sign ELSE 0 END),
           sum(CASE WHEN b.stato = 'cancellata' THEN b.sign ELSE 0 END),
           sum(CASE WHEN b.stato <> 'cancellata' THEN b.sign * round(extract(epoch FROM b.fine - b.inizio))::bigint ELSE 0 END)
      FROM (SELECT data_prenotazione, orario_inizio, bici_id, residente, stato, inizio, fine, 1 AS sign FROM new_rows) b
     CROSS JOIN LATERAL (VALUES ('bike', b.bici_id), ('day', 0), ('hour', left(b.orario_inizio, 2)::int),
                                ('res', CASE WHEN b.residente THEN 1 ELSE 0 END)) d(kind, key)
     GROUP BY 1, 2, 3
    HAVING sum(CASE WHEN b.stato <> 'cancellata' THEN b.sign ELSE 0 END) <> 0
        OR sum(CASE WHEN b.stato = 'cancellata' THEN b.sign ELSE 0 END) <> 0
        OR sum(CASE WHEN b.stato <> 'cancellata' THEN b.sign * round(extract(epoch FROM b.fine - b.inizio))::bigint ELSE 0 END) <> 0
     ORDER BY 2, 1, 3
        ON CONFLICT (kind, day, key) DO UPDATE
       SET rides = s.rides + excluded.rides,
           cancellations = s.cancellations + excluded.cancellations,
           seconds = s.seconds + excluded.seconds;
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO stats_giornaliere AS s (day, kind, key, rides, cancellations, seconds)
    SELECT b.data_prenotazione, d.kind, d.key,
           sum(CASE WHEN b.stato <> 'cancellata' THEN b.sign ELSE 0 END),
           sum(CASE WHEN b.stato = 'cancellata' THEN b.sign ELSE 0 END),
           sum(CASE WHEN b.stato <> 'cancellata' THEN b.sign * round(extract(epoch FROM b.fine - b.inizio))::bigint ELSE 0 END)
      FROM (SELECT data_prenotazione, orario_inizio, bici_id, residente, stato, inizio, fine, 1 AS sign FROM new_rows UNION ALL SELECT data_prenotazione, orario_inizio, bici_id, residente, stato, inizio, fine, -1 AS sign FROM old_rows) b
     CROSS JOIN LATERAL (VALUES ('bike', b.bici_id), ('day', 0), ('hour', left(b.orario_inizio, 2)::int),
                                ('res', CASE WHEN b.residente THEN 1 ELSE 0 END)) d(kind, key)
     GROUP BY 1, 2, 3
    HAVING sum(CASE WHEN b.stato <> 'cancellata' THEN b.sign ELSE 0 END) <> 0
        OR sum(CASE WHEN b.stato = 'cancellata' THEN b.sign ELSE 0 END) <> 0
        OR sum(CASE WHEN b.stato <> 'cancellata' THEN b.sign * round(extract(epoch FROM b.fine - b.inizio))::bigint ELSE 0 END) <> 0
     ORDER BY 2, 1, 3
        ON CONFLICT (kind, day, key) DO UPDATE
       SET rides = s.rides + excluded.rides,
           cancellations = s.cancellations + excluded.cancellations,
           seconds = s.seconds + excluded.seconds;
  ELSE
    INSERT INTO stats_giornaliere AS s (day, kind, key, rides, cancellations, seconds)
    SELECT b.data_prenotazione, d.kind, d.key,
           sum(CASE WHEN b.stato <> 'cancellata' THEN b.sign ELSE 0 END),
           sum(CASE WHEN b.stato = 'cancellata' THEN b.sign ELSE 0 END),
           sum(CASE WHEN b.stato <> 'cancellata' THEN b.sign * round(extract(epoch FROM b.fine - b.inizio))::bigint ELSE 0 END)
      FROM (SELECT data_prenotazione, orario_inizio, bici_id, residente, stato, inizio, fine, -1 AS sign FROM old_rows) b
     CROSS JOIN LATERAL (VALUES ('bike', b.bici_id), ('day', 0), ('hour', left(b.orario_inizio, 2)::int),
                                ('res', CASE WHEN b.residente THEN 1 ELSE 0 END)) d(kind, key)
     GROUP BY 1, 2, 3
    HAVING sum(CASE WHEN b.stato <> 'cancellata' THEN b.sign ELSE 0 END) <> 0
        OR sum(CASE WHEN b.stato = 'cancellata' THEN b.sign ELSE 0 END) <> 0
        OR sum(CASE WHEN b.stato <> 'cancellata' THEN b.sign * round(extract(epoch FROM b.fine - b.inizio))::bigint ELSE 0 END) <> 0
     ORDER BY 2, 1, 3
        ON CONFLICT (kind, day, key) DO UPDATE
       SET rides = s.rides + excluded.rides,
           cancellations = s.cancellations + excluded.cancellations,
           seconds = s.seconds + excluded.seconds;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION stats_payments_delta() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO stats_giornaliere AS s (day, kind, key, revenue_cents, released_holds)
    SELECT x.day, 'day', 0,
           sum(CASE WHEN x.status = 'completed' THEN x.sign * x.amount ELSE 0 END),
           sum(CASE WHEN x.status = 'failed' THEN x.sign ELSE 0 END)
      FROM (SELECT coalesce(r.booking_date, p.data_prenotazione) AS day, r.status, r.amount, r.sign
              FROM (SELECT prenotazione_id, booking_date, status, amount, 1 AS sign FROM new_rows) r
              LEFT JOIN prenotazioni p ON p.id = r.prenotazione_id) x
     WHERE x.day IS NOT NULL
     GROUP BY 1
    HAVING sum(CASE WHEN x.status = 'completed' THEN x.sign * x.amount ELSE 0 END) <> 0
        OR sum(CASE WHEN x.status = 'failed' THEN x.sign ELSE 0 END) <> 0
     ORDER BY 1
        ON CONFLICT (kind, day, key) DO UPDATE
       SET revenue_cents = s.revenue_cents + excluded.revenue_cents,
           released_holds = s.released_holds + excluded.released_holds;
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO stats_giornaliere AS s (day, kind, key, revenue_cents, released_holds)
    SELECT x.day, 'day', 0,
           sum(CASE WHEN x.status = 'completed' THEN x.sign * x.amount ELSE 0 END),
           sum(CASE WHEN x.status = 'failed' THEN x.sign ELSE 0 END)
      FROM (SELECT coalesce(r.booking_date, p.data_prenotazione) AS day, r.status, r.amount, r.sign
              FROM (SELECT prenotazione_id, booking_date, status, amount, 1 AS sign FROM new_rows UNION ALL SELECT prenotazione_id, booking_date, status, amount, -1 AS sign FROM old_rows) r
              LEFT JOIN prenotazioni p ON p.id = r.prenotazione_id) x
     WHERE x.day IS NOT NULL
     GROUP BY 1
    HAVING sum(CASE WHEN x.status = 'completed' THEN x.sign * x.amount ELSE 0 END) <> 0
        OR sum(CASE WHEN x.status = 'failed' THEN x.sign ELSE 0 END) <> 0
     ORDER BY 1
        ON CONFLICT (kind, day, key) DO UPDATE
       SET revenue_cents = s.revenue_cents + excluded.revenue_cents,
           released_holds = s.released_holds + excluded.released_holds;
  ELSE
    INSERT INTO stats_giornaliere AS s (day, kind, key, revenue_cents, released_holds)
    SELECT x.day, 'day', 0,
           sum(CASE WHEN x.status = 'completed' THEN x.sign * x.amount ELSE 0 END),
           sum(CASE WHEN x.status = 'failed' THEN x.sign ELSE 0 END)
      FROM (SELECT coalesce(r.booking_date, p.data_prenotazione) AS day, r.status, r.amount, r.sign
              FROM (SELECT prenotazione_id, booking_date, status, amount, -1 AS sign FROM old_rows) r
              LEFT JOIN prenotazioni p ON p.id = r.prenotazione_id) x
     WHERE x.day IS NOT NULL
     GROUP BY 1
    HAVING sum(CASE WHEN x.status = 'completed' THEN x.sign * x.amount ELSE 0 END) <> 0
        OR sum(CASE WHEN x.status = 'failed' THEN x.sign ELSE 0 END) <> 0
     ORDER BY 1
        ON CONFLICT (kind, day, key) DO UPDATE
       SET revenue_cents = s.revenue_cents + excluded.revenue_cents,
           released_holds = s.released_holds + excluded.released_holds;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER prenotazioni_stats_ins AFTER INSERT ON prenotazioni REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION stats_bookings_delta();
--> statement-breakpoint
CREATE TRIGGER prenotazioni_stats_upd AFTER UPDATE ON prenotazioni REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION stats_bookings_delta();
--> statement-breakpoint
CREATE TRIGGER prenotazioni_stats_del AFTER DELETE ON prenotazioni REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION stats_bookings_delta();
--> statement-breakpoint
CREATE TRIGGER pagamenti_stats_ins AFTER INSERT ON pagamenti REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION stats_payments_delta();
--> statement-breakpoint
CREATE TRIGGER pagamenti_stats_upd AFTER UPDATE ON pagamenti REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION stats_payments_delta();
--> statement-breakpoint
CREATE TRIGGER pagamenti_stats_del AFTER DELETE ON pagamenti REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION stats_payments_delta();
--> statement-breakpoint
-- The rollup of the bookings and payments already there.
INSERT INTO stats_giornaliere AS s (day, kind, key, rides, cancellations, seconds)
    SELECT b.data_prenotazione, d.kind, d.key,
           sum(CASE WHEN b.stato <> 'cancellata' THEN b.sign ELSE 0 END),
           sum(CASE WHEN b.stato = 'cancellata' THEN b.sign ELSE 0 END),
           sum(CASE WHEN b.stato <> 'cancellata' THEN b.sign * round(extract(epoch FROM b.fine - b.inizio))::bigint ELSE 0 END)
      FROM (SELECT data_prenotazione, orario_inizio, bici_id, residente, stato, inizio, fine, 1 AS sign FROM prenotazioni) b
     CROSS JOIN LATERAL (VALUES ('bike', b.bici_id), ('day', 0), ('hour', left(b.orario_inizio, 2)::int),
                                ('res', CASE WHEN b.residente THEN 1 ELSE 0 END)) d(kind, key)
     GROUP BY 1, 2, 3
    HAVING sum(CASE WHEN b.stato <> 'cancellata' THEN b.sign ELSE 0 END) <> 0
        OR sum(CASE WHEN b.stato = 'cancellata' THEN b.sign ELSE 0 END) <> 0
        OR sum(CASE WHEN b.stato <> 'cancellata' THEN b.sign * round(extract(epoch FROM b.fine - b.inizio))::bigint ELSE 0 END) <> 0
     ORDER BY 2, 1, 3
        ON CONFLICT (kind, day, key) DO UPDATE
       SET rides = s.rides + excluded.rides,
           cancellations = s.cancellations + excluded.cancellations,
           seconds = s.seconds + excluded.seconds;
--> statement-breakpoint
INSERT INTO stats_giornaliere AS s (day, kind, key, revenue_cents, released_holds)
    SELECT x.day, 'day', 0,
           sum(CASE WHEN x.status = 'completed' THEN x.sign * x.amount ELSE 0 END),
           sum(CASE WHEN x.status = 'failed' THEN x.sign ELSE 0 END)
      FROM (SELECT coalesce(r.booking_date, p.data_prenotazione) AS day, r.status, r.amount, r.sign
              FROM (SELECT prenotazione_id, booking_date, status, amount, 1 AS sign FROM pagamenti) r
              LEFT JOIN prenotazioni p ON p.id = r.prenotazione_id) x
     WHERE x.day IS NOT NULL
     GROUP BY 1
    HAVING sum(CASE WHEN x.status = 'completed' THEN x.sign * x.amount ELSE 0 END) <> 0
        OR sum(CASE WHEN x.status = 'failed' THEN x.sign ELSE 0 END) <> 0
     ORDER BY 1
        ON CONFLICT (kind, day, key) DO UPDATE
       SET revenue_cents = s.revenue_cents + excluded.revenue_cents,
           released_holds = s.released_holds + excluded.released_holds;
