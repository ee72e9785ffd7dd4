-- Hand-written (decision 018): the time ranges of the active bookings alone, whatever the
-- bike, in a partial GiST index. The availability query asks "which active bookings overlap
-- this window?" and the life-cycle probe "which are in progress now?": one scan of this
-- index each, returning the few rows that match, instead of one probe of the exclusion
-- constraint's (bici_id, range) index per bike. Like that index it holds only `attiva`
-- rows, so it does not grow with history. Not in schema.ts, as the exclusion constraint
-- is not: drizzle-kit cannot express either; its snapshot is a copy of 0005's.
CREATE INDEX "prenotazioni_active_range_idx" ON "prenotazioni" USING gist (tstzrange("inizio", "fine", '[)')) WHERE "stato" = 'attiva';
