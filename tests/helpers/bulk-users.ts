import { createHash, randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Database } from '../../src/server/db/client.js';

/**
 * `count` users (every second one a resident, the others externals) with a session each,
 * made with SQL: hashing thousands of passwords with argon2 would take minutes. Returns
 * their session cookies, in order, and their ids.
 */
export async function usersWithSessions(db: Database['db'], prefix: string, count: number): Promise<{ cookies: string[]; ids: number[] }> {
  const inserted = await db.execute<{ id: number }>(sql`
    insert into users (nome, cognome, email, password_hash, is_residente)
    select 'Utente', ${prefix} || g, ${prefix} || g || '@example.it', 'x', g % 2 = 0 from generate_series(1, ${count}::int) g
    returning id`);
  const ids = inserted.rows.map((r) => r.id);
  const tokens = ids.map(() => randomBytes(32).toString('base64url'));
  const rows = tokens.map((t, i) => ({ h: createHash('sha256').update(t).digest('hex'), u: ids[i]! }));
  await db.execute(sql`
    insert into sessions (token_hash, user_id, kind, expires_at)
    select r.h, r.u, 'session', now() + interval '1 day' from json_to_recordset(${JSON.stringify(rows)}::json) as r(h text, u int)`);
  return { cookies: tokens.map((t) => `bicielis_session=${t}`), ids };
}
