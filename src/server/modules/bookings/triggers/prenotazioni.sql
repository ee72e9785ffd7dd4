-- What the database does by itself on `prenotazioni`: the live definition, applied by db/migrate.ts.
-- writes stats_delta (owner stats): the statistics' deltas, in the booking's own transaction (0010).
-- writes codici_corsa (owner locks): a smart lock's PIN follows its booking (0020).
-- writes lucchetti (owner locks): a combination code shown and not used is marked to change (0020).
-- writes contatori_delta (owner stats): the count of active bookings the /admin summary shows, as deltas (issue 51).
-- writes contatori (owner stats): a counter zeroed when its table is emptied (TRUNCATE, issue 51).

-- Every transaction that touches the fleet's picture leaves its id (fleet/now.ts; also on biciclette, manutenzioni, pagamenti).
CREATE OR REPLACE FUNCTION bicielis_availability_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO disponibilita_modifiche (xid) VALUES (pg_current_xact_id()::text::bigint) ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;
CREATE OR REPLACE TRIGGER prenotazioni_disponibilita AFTER INSERT OR UPDATE OR DELETE ON prenotazioni
  FOR EACH ROW EXECUTE FUNCTION bicielis_availability_changed();
CREATE OR REPLACE TRIGGER prenotazioni_disponibilita_truncate AFTER TRUNCATE ON prenotazioni
  FOR EACH STATEMENT EXECUTE FUNCTION bicielis_availability_changed();

-- A booking is at its bike's sede (issue 47): set at insert and at every move to another bike, so
-- `prenotazioni_no_overlap` (sede, bike, window) is exact. A bike changes sede only without live
-- bookings (bikes/triggers/biciclette.sql).
CREATE OR REPLACE FUNCTION bicielis_booking_sede() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.sede_id := (SELECT b.sede_id FROM biciclette b WHERE b.id = NEW.bici_id);
  RETURN NEW;
END $$;
CREATE OR REPLACE TRIGGER prenotazioni_sede BEFORE INSERT OR UPDATE OF bici_id, sede_id ON prenotazioni
  FOR EACH ROW EXECUTE FUNCTION bicielis_booking_sede();

-- The booker's resident mark at the time of booking, for the statistics.
CREATE OR REPLACE FUNCTION stats_booking_resident() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.residente := coalesce((SELECT u.is_residente FROM users u WHERE u.id = NEW.user_id), false);
  RETURN NEW;
END $$;
CREATE OR REPLACE TRIGGER prenotazioni_residente BEFORE INSERT ON prenotazioni FOR EACH ROW EXECUTE FUNCTION stats_booking_resident();

-- The statistics' deltas of a statement's rows (rides, cancellations, seconds), folded by the stats-fold job:
-- by day, hour, bike, resident mark and sede (issue 47: the booking's sede, set above from its bike).
CREATE OR REPLACE FUNCTION stats_booking_deltas(rows prenotazioni[], sign integer)
  RETURNS TABLE(day date, kind text, key integer, rides bigint, cancellations bigint, seconds bigint) LANGUAGE sql STABLE AS $$
  SELECT b.data_prenotazione, d.kind, d.key,
         sum(CASE WHEN b.stato in ('attiva', 'completata') THEN sign ELSE 0 END),
         sum(CASE WHEN b.stato = 'cancellata' THEN sign ELSE 0 END),
         sum(CASE WHEN b.stato in ('attiva', 'completata') THEN sign * round(extract(epoch FROM b.fine - b.inizio))::bigint ELSE 0 END)
    FROM unnest(rows) b
   CROSS JOIN LATERAL (VALUES ('bike', b.bici_id), ('day', 0), ('hour', left(b.orario_inizio, 2)::int),
                              ('res', CASE WHEN b.residente THEN 1 ELSE 0 END), ('sede', b.sede_id)) d(kind, key)
   GROUP BY 1, 2, 3
$$;
-- Issue 51: planned once per connection (a custom plan of the INSERT below cost 0.4-2.5 ms a call, on every
-- booking), and nothing is done for a statement that changed no row (the writers' settle runs two such updates).
CREATE OR REPLACE FUNCTION stats_bookings_delta() RETURNS trigger LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  added prenotazioni[];
  removed prenotazioni[];
BEGIN
  -- A transition table exists only for the operations that have it.
  IF TG_OP IN ('INSERT', 'UPDATE') THEN SELECT array_agg(r) INTO added FROM new_rows r; END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN SELECT array_agg(r) INTO removed FROM old_rows r; END IF;
  IF added IS NULL AND removed IS NULL THEN RETURN NULL; END IF;
  INSERT INTO stats_delta (day, kind, key, rides, cancellations, seconds)
  SELECT x.day, x.kind, x.key, sum(x.rides), sum(x.cancellations), sum(x.seconds)
    FROM (SELECT * FROM stats_booking_deltas(added, 1) UNION ALL SELECT * FROM stats_booking_deltas(removed, -1)) x
   GROUP BY 1, 2, 3
  HAVING sum(x.rides) <> 0 OR sum(x.cancellations) <> 0 OR sum(x.seconds) <> 0;
  RETURN NULL;
END $$;
CREATE OR REPLACE TRIGGER prenotazioni_stats_ins AFTER INSERT ON prenotazioni
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION stats_bookings_delta();
CREATE OR REPLACE TRIGGER prenotazioni_stats_upd AFTER UPDATE ON prenotazioni
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION stats_bookings_delta();
CREATE OR REPLACE TRIGGER prenotazioni_stats_del AFTER DELETE ON prenotazioni
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION stats_bookings_delta();

-- A booking or offer that stops holding its time (ended, deleted, moved, shortened) frees it for the waitlist.
-- Never on insert: the booking path is hot. bicielis_free_time is in waitlist/triggers/attese.sql.
CREATE OR REPLACE FUNCTION bicielis_booking_freed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM bicielis_free_time(OLD.bici_id, OLD.inizio, OLD.fine, 'prenotazione_' || lower(TG_OP));
  RETURN NULL;
END $$;
CREATE OR REPLACE TRIGGER prenotazioni_tempo_liberato_upd AFTER UPDATE OF stato, bici_id, inizio, fine ON prenotazioni
  FOR EACH ROW WHEN (OLD.stato IN ('attiva', 'offerta') AND (NEW.stato NOT IN ('attiva', 'offerta')
    OR NEW.bici_id IS DISTINCT FROM OLD.bici_id OR NEW.inizio > OLD.inizio OR NEW.fine < OLD.fine))
  EXECUTE FUNCTION bicielis_booking_freed();
CREATE OR REPLACE TRIGGER prenotazioni_tempo_liberato_del AFTER DELETE ON prenotazioni
  FOR EACH ROW WHEN (OLD.stato IN ('attiva', 'offerta')) EXECUTE FUNCTION bicielis_booking_freed();

-- The return makes the code drawn at the pick-up the lock's code (and clears `Codice da cambiare`).
CREATE OR REPLACE FUNCTION bicielis_lock_code_rotated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE lucchetti l SET codice = c.codice_nuovo, da_cambiare_dal = NULL, updated_at = now()
    FROM codici_corsa c
   WHERE c.prenotazione_id = NEW.id AND c.codice_nuovo IS NOT NULL
     AND l.bici_id = NEW.bici_id AND l.tipo = 'combinazione';
  RETURN NULL;
END $$;
CREATE OR REPLACE TRIGGER prenotazioni_lucchetto_riconsegna AFTER UPDATE OF stato ON prenotazioni
  FOR EACH ROW WHEN (OLD.stato = 'attiva' AND NEW.stato = 'completata' AND NEW.ritirata_at IS NOT NULL)
  EXECUTE FUNCTION bicielis_lock_code_rotated();

-- A code shown for a booking cancelled without a pick-up is known to someone who did not ride: `Codice da cambiare`.
CREATE OR REPLACE FUNCTION bicielis_lock_code_exposed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE lucchetti l SET da_cambiare_dal = now(), updated_at = now()
   WHERE l.bici_id = NEW.bici_id AND l.tipo = 'combinazione' AND l.da_cambiare_dal IS NULL
     AND EXISTS (SELECT 1 FROM codici_corsa c WHERE c.prenotazione_id = NEW.id AND c.mostrato_at IS NOT NULL);
  RETURN NULL;
END $$;
CREATE OR REPLACE TRIGGER prenotazioni_lucchetto_cancellata AFTER UPDATE OF stato ON prenotazioni
  FOR EACH ROW WHEN (OLD.stato <> 'cancellata' AND NEW.stato = 'cancellata' AND NEW.ritirata_at IS NULL)
  EXECUTE FUNCTION bicielis_lock_code_exposed();

-- A booking moved to another bike before the pick-up: the old lock's shown code is to change, the new bike's is shown afresh.
CREATE OR REPLACE FUNCTION bicielis_lock_code_moved() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE lucchetti l SET da_cambiare_dal = now(), updated_at = now()
   WHERE l.bici_id = OLD.bici_id AND l.tipo = 'combinazione' AND l.da_cambiare_dal IS NULL
     AND EXISTS (SELECT 1 FROM codici_corsa c WHERE c.prenotazione_id = NEW.id AND c.mostrato_at IS NOT NULL);
  UPDATE codici_corsa SET mostrato_at = NULL WHERE prenotazione_id = NEW.id AND mostrato_at IS NOT NULL;
  RETURN NULL;
END $$;
CREATE OR REPLACE TRIGGER prenotazioni_lucchetto_spostata AFTER UPDATE OF bici_id ON prenotazioni
  FOR EACH ROW WHEN (OLD.bici_id <> NEW.bici_id AND NEW.ritirata_at IS NULL) EXECUTE FUNCTION bicielis_lock_code_moved();

-- A booking made or an offer accepted on a smart-lock bike wants a PIN from the pick-up window to the end + 15 minutes;
-- the dispatcher (locks/pins.ts) calls the provider after the commit, woken by NOTIFY bicielis_pin.
CREATE OR REPLACE FUNCTION bicielis_pin_wanted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO codici_corsa (prenotazione_id, id_lucchetto, pin_stato, valido_da, valido_fino)
  SELECT NEW.id, l.id_lucchetto, 'da_creare', NEW.inizio - interval '10 minutes', NEW.fine + interval '15 minutes'
    FROM lucchetti l WHERE l.bici_id = NEW.bici_id AND l.tipo = 'smart'
  ON CONFLICT (prenotazione_id) DO NOTHING;
  IF FOUND THEN PERFORM pg_notify('bicielis_pin', ''); END IF;
  RETURN NULL;
END $$;
CREATE OR REPLACE TRIGGER prenotazioni_pin_nuova AFTER INSERT ON prenotazioni
  FOR EACH ROW WHEN (NEW.stato = 'attiva') EXECUTE FUNCTION bicielis_pin_wanted();
CREATE OR REPLACE TRIGGER prenotazioni_pin_offerta_accettata AFTER UPDATE OF stato ON prenotazioni
  FOR EACH ROW WHEN (OLD.stato = 'offerta' AND NEW.stato = 'attiva') EXECUTE FUNCTION bicielis_pin_wanted();

-- A booking's window moved (by a closure or a maintenance): its PIN's period follows.
CREATE OR REPLACE FUNCTION bicielis_pin_moved() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE codici_corsa SET valido_da = NEW.inizio - interval '10 minutes', valido_fino = NEW.fine + interval '15 minutes',
         pin_stato = CASE WHEN pin_id IS NULL THEN 'da_creare' ELSE 'da_estendere' END,
         prossimo_tentativo = NULL, tentativi = 0
   WHERE prenotazione_id = NEW.id AND pin_stato IN ('da_creare', 'attivo', 'da_estendere');
  IF FOUND THEN PERFORM pg_notify('bicielis_pin', ''); END IF;
  RETURN NULL;
END $$;
CREATE OR REPLACE TRIGGER prenotazioni_pin_spostata AFTER UPDATE OF inizio, fine ON prenotazioni
  FOR EACH ROW WHEN (NEW.stato = 'attiva' AND (OLD.inizio <> NEW.inizio OR OLD.fine <> NEW.fine)) EXECUTE FUNCTION bicielis_pin_moved();

-- Any end of a booking revokes its PIN: at once when the provider holds none yet, else through the dispatcher.
CREATE OR REPLACE FUNCTION bicielis_pin_ended() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE codici_corsa SET pin_stato = CASE WHEN pin_id IS NULL THEN 'revocato' ELSE 'da_revocare' END,
         prossimo_tentativo = NULL, tentativi = 0
   WHERE prenotazione_id = NEW.id AND pin_stato IN ('da_creare', 'attivo', 'da_estendere');
  IF FOUND THEN PERFORM pg_notify('bicielis_pin', ''); END IF;
  RETURN NULL;
END $$;
CREATE OR REPLACE TRIGGER prenotazioni_pin_conclusa AFTER UPDATE OF stato ON prenotazioni
  FOR EACH ROW WHEN (OLD.stato = 'attiva' AND NEW.stato IN ('completata', 'cancellata')) EXECUTE FUNCTION bicielis_pin_ended();

-- A booking moved to another bike: a PIN held on the old lock is revoked, one is made on the new bike's smart lock.
CREATE OR REPLACE FUNCTION bicielis_pin_bike_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  new_lock text;
BEGIN
  SELECT l.id_lucchetto INTO new_lock FROM lucchetti l WHERE l.bici_id = NEW.bici_id AND l.tipo = 'smart';
  UPDATE codici_corsa SET pin_stato = 'da_revocare', prossimo_tentativo = NULL, tentativi = 0
   WHERE prenotazione_id = NEW.id AND pin_id IS NOT NULL AND pin_stato IN ('da_creare', 'attivo', 'da_estendere');
  UPDATE codici_corsa SET id_lucchetto = new_lock, pin = NULL, prossimo_tentativo = NULL, tentativi = 0,
         pin_stato = CASE WHEN new_lock IS NULL THEN 'revocato' ELSE 'da_creare' END
   WHERE prenotazione_id = NEW.id AND pin_id IS NULL AND pin_stato IN ('da_creare', 'attivo', 'da_estendere');
  IF new_lock IS NOT NULL THEN
    INSERT INTO codici_corsa (prenotazione_id, id_lucchetto, pin_stato, valido_da, valido_fino)
    VALUES (NEW.id, new_lock, 'da_creare', NEW.inizio - interval '10 minutes', NEW.fine + interval '15 minutes')
    ON CONFLICT (prenotazione_id) DO UPDATE SET valido_da = excluded.valido_da, valido_fino = excluded.valido_fino
     WHERE codici_corsa.pin_stato IS NULL;
    UPDATE codici_corsa SET id_lucchetto = new_lock, pin_stato = 'da_creare'
     WHERE prenotazione_id = NEW.id AND pin_stato IS NULL;
  END IF;
  PERFORM pg_notify('bicielis_pin', '');
  RETURN NULL;
END $$;
CREATE OR REPLACE TRIGGER prenotazioni_pin_altra_bici AFTER UPDATE OF bici_id ON prenotazioni
  FOR EACH ROW WHEN (NEW.stato = 'attiva' AND OLD.bici_id <> NEW.bici_id) EXECUTE FUNCTION bicielis_pin_bike_changed();

-- A booking deleted: a shown code not used marks the lock; its code row goes, unless the provider holds a PIN to revoke first.
CREATE OR REPLACE FUNCTION bicielis_ride_code_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.stato = 'attiva' AND OLD.ritirata_at IS NULL THEN
    UPDATE lucchetti l SET da_cambiare_dal = now(), updated_at = now()
     WHERE l.bici_id = OLD.bici_id AND l.tipo = 'combinazione' AND l.da_cambiare_dal IS NULL
       AND EXISTS (SELECT 1 FROM codici_corsa c WHERE c.prenotazione_id = OLD.id AND c.mostrato_at IS NOT NULL);
  END IF;
  DELETE FROM codici_corsa WHERE prenotazione_id = OLD.id AND (pin_id IS NULL OR pin_stato = 'revocato');
  UPDATE codici_corsa SET pin_stato = 'da_revocare', prossimo_tentativo = NULL, tentativi = 0 WHERE prenotazione_id = OLD.id;
  IF FOUND THEN PERFORM pg_notify('bicielis_pin', ''); END IF;
  RETURN OLD;
END $$;
CREATE OR REPLACE TRIGGER prenotazioni_codici_eliminata BEFORE DELETE ON prenotazioni FOR EACH ROW EXECUTE FUNCTION bicielis_ride_code_deleted();

-- The count of active bookings (stored state `attiva`) for the /admin summary (issue 51, decision 065): a statement's
-- net change appended to contatori_delta and folded by the stats-fold job, so no booking holds a shared row to its commit.
CREATE OR REPLACE FUNCTION bicielis_active_count_delta() RETURNS trigger LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  change bigint := 0;
BEGIN
  -- A transition table exists only for the operations that have it.
  IF TG_OP IN ('INSERT', 'UPDATE') THEN change := change + (SELECT count(*) FROM new_rows r WHERE r.stato = 'attiva'); END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN change := change - (SELECT count(*) FROM old_rows r WHERE r.stato = 'attiva'); END IF;
  IF change <> 0 THEN INSERT INTO contatori_delta (nome, delta) VALUES ('prenotazioni_attive', change); END IF;
  RETURN NULL;
END $$;
CREATE OR REPLACE TRIGGER prenotazioni_attive_ins AFTER INSERT ON prenotazioni
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION bicielis_active_count_delta();
CREATE OR REPLACE TRIGGER prenotazioni_attive_upd AFTER UPDATE ON prenotazioni
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION bicielis_active_count_delta();
CREATE OR REPLACE TRIGGER prenotazioni_attive_del AFTER DELETE ON prenotazioni
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION bicielis_active_count_delta();
-- A table emptied (TRUNCATE: the tests) counts nothing: its counter's deltas and its folded row go (no row is 0).
-- Used by this file's trigger and by users' (users/triggers/users.sql). TRUNCATE holds the table
-- exclusively, so no delta of an open transaction is left behind; a fold at the same time waits or finds nothing.
CREATE OR REPLACE FUNCTION bicielis_count_reset() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM contatori_delta WHERE nome = TG_ARGV[0];
  DELETE FROM contatori WHERE nome = TG_ARGV[0];
  RETURN NULL;
END $$;
-- Emptied, the table counts no active booking.
CREATE OR REPLACE TRIGGER prenotazioni_attive_truncate AFTER TRUNCATE ON prenotazioni
  FOR EACH STATEMENT EXECUTE FUNCTION bicielis_count_reset('prenotazioni_attive');
