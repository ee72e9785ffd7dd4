-- What the database does by itself on `interventi`: the live definition, applied by db/migrate.ts.

-- A repair ticket is at its bike's sede (issue 48), whatever the insert says: set before every
-- insert, as a booking's (`bicielis_booking_sede`, bookings/triggers/prenotazioni.sql). A ticket
-- keeps the sede it was opened at when its bike moves later.
CREATE OR REPLACE FUNCTION bicielis_intervento_sede() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.sede_id := (SELECT b.sede_id FROM biciclette b WHERE b.id = NEW.bici_id);
  RETURN NEW;
END $$;
CREATE OR REPLACE TRIGGER interventi_sede BEFORE INSERT ON interventi
  FOR EACH ROW EXECUTE FUNCTION bicielis_intervento_sede();
