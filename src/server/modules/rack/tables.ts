import { sql } from 'drizzle-orm';
import { pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, tstz } from '../../db/columns.js';

/**
 * The rack's board links (issue 34, decision 044): `/rastrelliera/{token}` for a tablet at the
 * rack. Only the token's SHA-256 is kept (as sessions do); one link is live at a time (the
 * partial unique index), a new one or a revocation ends it (`revoked_at`).
 */
export const rastrellieraLink = pgTable(
  'rastrelliera_link',
  {
    id: serial('id').primaryKey(),
    tokenHash: text('token_hash').notNull(),
    createdAt: createdAt(),
    revokedAt: tstz('revoked_at'),
  },
  (t) => [
    uniqueIndex('rastrelliera_link_token_hash_idx').on(t.tokenHash),
    uniqueIndex('rastrelliera_link_one_live').on(sql`(true)`).where(sql`${t.revokedAt} is null`),
  ],
);
