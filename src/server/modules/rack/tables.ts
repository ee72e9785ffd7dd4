import { sql } from 'drizzle-orm';
import { pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, tstz, sedeColumn } from '../../db/columns.js';
import { sedi } from '../sedi/tables.js';

/**
 * The rack's board links (issue 34, decision 044): `/rastrelliera/{token}` for a tablet at the
 * rack. Only the token's SHA-256 is kept (as sessions do); one link per sede is live at a time
 * (the partial unique index), a new one or a revocation ends it (`revoked_at`).
 */
export const rastrellieraLink = pgTable(
  'rastrelliera_link',
  {
    id: serial('id').primaryKey(),
    tokenHash: text('token_hash').notNull(),
    /** The sede whose bikes the board shows (issue 47): one live link per sede. */
    sedeId: sedeColumn().references(() => sedi.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    revokedAt: tstz('revoked_at'),
  },
  (t) => [
    uniqueIndex('rastrelliera_link_token_hash_idx').on(t.tokenHash),
    uniqueIndex('rastrelliera_link_one_live').on(t.sedeId).where(sql`${t.revokedAt} is null`),
  ],
);
