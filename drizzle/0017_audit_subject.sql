ALTER TABLE "audit_log" ADD COLUMN "soggetto" text;--> statement-breakpoint
-- The entries written before the column (issue 31) get their subject where the bike or the
-- person still exists, as admin/audit.ts writes it: `Bici 07`, the person's name, `Bici 07 per
-- Maria Rossi`. A booking, a damage or a maintenance deleted since is found through the ids its
-- `before` kept.
WITH ids AS (
  SELECT a.id, a.entity,
         CASE a.entity
           WHEN 'bike' THEN a.entity_id
           WHEN 'booking' THEN coalesce(p.bici_id::text, a.before->>'biciId')
           WHEN 'damage' THEN d.bici_id::text
           WHEN 'maintenance' THEN coalesce(m.bici_id::text, a.before->>'biciId')
         END AS bike_id,
         CASE a.entity
           WHEN 'user' THEN a.entity_id
           WHEN 'booking' THEN coalesce(p.user_id::text, a.before->>'userId')
         END AS user_id
    FROM "audit_log" a
    LEFT JOIN "prenotazioni" p ON a.entity = 'booking' AND p.id::text = a.entity_id
    LEFT JOIN "segnalazioni_danni" d ON a.entity = 'damage' AND d.id::text = a.entity_id
    LEFT JOIN "manutenzioni" m ON a.entity = 'maintenance' AND m.id::text = a.entity_id
   WHERE a.entity IN ('bike', 'user', 'booking', 'damage', 'maintenance') AND a.entity_id IS NOT NULL
), named AS (
  SELECT ids.id, ids.entity, 'Bici ' || b.numero AS bike, nullif(trim(u.nome || ' ' || u.cognome), '') AS person
    FROM ids
    LEFT JOIN "biciclette" b ON b.id::text = ids.bike_id
    LEFT JOIN "users" u ON u.id::text = ids.user_id
)
UPDATE "audit_log" a
   SET soggetto = CASE named.entity
                    WHEN 'user' THEN named.person
                    WHEN 'booking' THEN coalesce(named.bike || ' per ' || named.person, named.bike, named.person)
                    ELSE named.bike
                  END
  FROM named
 WHERE a.id = named.id;--> statement-breakpoint
-- A person who erased their account stays `[dato rimosso]` (privacy/audit-redact.ts).
UPDATE "audit_log"
   SET soggetto = '[dato rimosso]'
 WHERE entity = 'user' AND entity_id IS NOT NULL AND soggetto IS NULL
   AND '[dato rimosso]' IN (before->>'nome', before->>'email', after->>'nome', after->>'email');
