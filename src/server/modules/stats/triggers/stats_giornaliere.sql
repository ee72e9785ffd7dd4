-- What the database does by itself on `stats_giornaliere`: the live definition, applied by db/migrate.ts.

-- The rollup's totals of every booking ever (rides, cancellations: its 'day' rows summed) kept in `contatori` (issue 51,
-- decision 065), so the /admin summary reads two rows, not one a day of the install's life. The rollup is written once a
-- minute by the stats-fold job alone (stats/fold.ts), so this one-row update is on no booking's path.
CREATE OR REPLACE FUNCTION stats_totals_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  d_rides bigint := 0;
  d_cancellations bigint := 0;
BEGIN
  -- A transition table exists only for the operations that have it.
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    SELECT d_rides + coalesce(sum(r.rides), 0), d_cancellations + coalesce(sum(r.cancellations), 0)
      INTO d_rides, d_cancellations FROM new_rows r WHERE r.kind = 'day';
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    SELECT d_rides - coalesce(sum(r.rides), 0), d_cancellations - coalesce(sum(r.cancellations), 0)
      INTO d_rides, d_cancellations FROM old_rows r WHERE r.kind = 'day';
  END IF;
  INSERT INTO contatori AS c (nome, valore)
  SELECT v.nome, v.valore FROM (VALUES ('cancellazioni', d_cancellations), ('corse', d_rides)) v(nome, valore) WHERE v.valore <> 0
  ON CONFLICT (nome) DO UPDATE SET valore = c.valore + excluded.valore;
  RETURN NULL;
END $$;
CREATE OR REPLACE TRIGGER stats_giornaliere_totali_ins AFTER INSERT ON stats_giornaliere
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION stats_totals_changed();
CREATE OR REPLACE TRIGGER stats_giornaliere_totali_upd AFTER UPDATE ON stats_giornaliere
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION stats_totals_changed();
CREATE OR REPLACE TRIGGER stats_giornaliere_totali_del AFTER DELETE ON stats_giornaliere
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION stats_totals_changed();

-- Emptied (TRUNCATE: the tests), the rollup totals nothing (bicielis_count_reset is in bookings/triggers/prenotazioni.sql).
CREATE OR REPLACE TRIGGER stats_giornaliere_corse_truncate AFTER TRUNCATE ON stats_giornaliere
  FOR EACH STATEMENT EXECUTE FUNCTION bicielis_count_reset('corse');
CREATE OR REPLACE TRIGGER stats_giornaliere_cancellazioni_truncate AFTER TRUNCATE ON stats_giornaliere
  FOR EACH STATEMENT EXECUTE FUNCTION bicielis_count_reset('cancellazioni');
