-- What the database does by itself on `pagamenti`: the live definition, applied by db/migrate.ts.
-- writes stats_delta (owner stats): revenue and released holds, in the payment's own transaction (0010).

-- The fleet's picture changed (bicielis_availability_changed is in bookings/triggers/prenotazioni.sql).
CREATE OR REPLACE TRIGGER pagamenti_disponibilita AFTER INSERT OR UPDATE OR DELETE ON pagamenti
  FOR EACH ROW EXECUTE FUNCTION bicielis_availability_changed();
CREATE OR REPLACE TRIGGER pagamenti_disponibilita_truncate AFTER TRUNCATE ON pagamenti
  FOR EACH STATEMENT EXECUTE FUNCTION bicielis_availability_changed();

-- A payment is completed at most once and never goes back: pending → completed | failed | refunded, completed | failed → refunded.
CREATE OR REPLACE FUNCTION bicielis_payment_transition() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.status IS DISTINCT FROM OLD.status AND NOT (
       (OLD.status = 'pending' AND NEW.status IN ('completed', 'failed', 'refunded'))
    OR (OLD.status IN ('completed', 'failed') AND NEW.status = 'refunded')) THEN
    RAISE EXCEPTION 'payment % cannot go from % to %', OLD.id, OLD.status, NEW.status
      USING ERRCODE = 'check_violation', CONSTRAINT = 'pagamenti_status_transition';
  END IF;
  -- A completed payment keeps the provider's payment that paid it.
  IF OLD.status = 'completed' AND NEW.status = 'completed'
     AND NEW.provider_payment_id IS DISTINCT FROM OLD.provider_payment_id THEN
    RAISE EXCEPTION 'payment % is already completed by %', OLD.id, OLD.provider_payment_id
      USING ERRCODE = 'check_violation', CONSTRAINT = 'pagamenti_status_transition';
  END IF;
  RETURN NEW;
END $$;
CREATE OR REPLACE TRIGGER pagamenti_status_transition BEFORE UPDATE OF status, provider_payment_id ON pagamenti
  FOR EACH ROW EXECUTE FUNCTION bicielis_payment_transition();

-- The statistics' deltas of a statement's rows (completed = revenue, failed = hold released), folded by the stats-fold job.
CREATE OR REPLACE FUNCTION stats_payment_deltas(rows pagamenti[], sign integer)
  RETURNS TABLE(day date, revenue_cents bigint, released_holds bigint) LANGUAGE sql STABLE AS $$
  SELECT coalesce(r.booking_date, p.data_prenotazione),
         sum(CASE WHEN r.status = 'completed' THEN sign * r.amount ELSE 0 END),
         sum(CASE WHEN r.status = 'failed' THEN sign ELSE 0 END)
    FROM unnest(rows) r
    LEFT JOIN prenotazioni p ON p.id = r.prenotazione_id
   WHERE coalesce(r.booking_date, p.data_prenotazione) IS NOT NULL
   GROUP BY 1
$$;
-- The same by the booking's sede (issue 47, the rollup's kind 'sede'). A payment whose booking was deleted
-- keeps its day (booking_date) but not its sede: a later change of it counts in the day only.
CREATE OR REPLACE FUNCTION stats_payment_sede_deltas(rows pagamenti[], sign integer)
  RETURNS TABLE(day date, sede_id integer, revenue_cents bigint, released_holds bigint) LANGUAGE sql STABLE AS $$
  SELECT p.data_prenotazione, p.sede_id,
         sum(CASE WHEN r.status = 'completed' THEN sign * r.amount ELSE 0 END),
         sum(CASE WHEN r.status = 'failed' THEN sign ELSE 0 END)
    FROM unnest(rows) r
    JOIN prenotazioni p ON p.id = r.prenotazione_id
   GROUP BY 1, 2
$$;
-- Only completed and failed payments count (revenue, a hold released): an external's booking inserts a pending one,
-- which changes no figure. Issue 51: so a statement with no such row stops here (the booking path ran the INSERT
-- below for nothing), and what remains is planned once per connection (a custom plan cost 1.5-2.5 ms a call).
CREATE OR REPLACE FUNCTION stats_payments_delta() RETURNS trigger LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  added pagamenti[];
  removed pagamenti[];
BEGIN
  IF TG_OP IN ('INSERT', 'UPDATE') THEN SELECT array_agg(r) INTO added FROM new_rows r WHERE r.status IN ('completed', 'failed'); END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN SELECT array_agg(r) INTO removed FROM old_rows r WHERE r.status IN ('completed', 'failed'); END IF;
  IF added IS NULL AND removed IS NULL THEN RETURN NULL; END IF;
  INSERT INTO stats_delta (day, kind, key, revenue_cents, released_holds)
  SELECT x.day, 'day', 0, sum(x.revenue_cents), sum(x.released_holds)
    FROM (SELECT * FROM stats_payment_deltas(added, 1) UNION ALL SELECT * FROM stats_payment_deltas(removed, -1)) x
   GROUP BY 1
  HAVING sum(x.revenue_cents) <> 0 OR sum(x.released_holds) <> 0
  UNION ALL
  SELECT x.day, 'sede', x.sede_id, sum(x.revenue_cents), sum(x.released_holds)
    FROM (SELECT * FROM stats_payment_sede_deltas(added, 1) UNION ALL SELECT * FROM stats_payment_sede_deltas(removed, -1)) x
   GROUP BY 1, 3
  HAVING sum(x.revenue_cents) <> 0 OR sum(x.released_holds) <> 0;
  RETURN NULL;
END $$;
CREATE OR REPLACE TRIGGER pagamenti_stats_ins AFTER INSERT ON pagamenti
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION stats_payments_delta();
CREATE OR REPLACE TRIGGER pagamenti_stats_upd AFTER UPDATE ON pagamenti
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION stats_payments_delta();
CREATE OR REPLACE TRIGGER pagamenti_stats_del AFTER DELETE ON pagamenti
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION stats_payments_delta();
