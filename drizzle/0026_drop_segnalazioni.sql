-- Issue 48, decision 054: damage reports are repair tickets (`interventi`, copied by 0025); the old table goes.
DROP TABLE "segnalazioni_danni" CASCADE;