import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { retryTransient } from '../../db/transaction.js';

/**
 * Moves the statistics' pending deltas (`stats_delta`, written by the triggers of 0005 as
 * redefined by 0010) into the rollup `stats_giornaliere`, in one statement: the rows deleted
 * are exactly the rows added, so a read sees each delta once, before or after (decision 023).
 * Deltas of transactions not committed yet are invisible here and wait for the next fold. Two
 * folds at once cannot count a delta twice: the second's delete finds the first's rows gone.
 * Only this statement writes `stats_giornaliere`; it locks its rows in key order. The counters'
 * deltas (`contatori_delta`, issue 51, decision 065) move into `contatori` in the same statement,
 * the same way. Returns the number of the rollup's deltas moved.
 */
export async function foldStatsDelta(db: Db): Promise<number> {
  const result = await retryTransient(() =>
    db.execute<{ moved: number }>(sql`
      with moved as (
        delete from stats_delta
        returning day, kind, key, rides, cancellations, seconds, revenue_cents, released_holds
      ), folded as (
        -- triggers: contatori (the rollup's totals, stats/triggers/stats_giornaliere.sql)
        insert into stats_giornaliere as s (day, kind, key, rides, cancellations, seconds, revenue_cents, released_holds)
        select day, kind, key, sum(rides), sum(cancellations), sum(seconds), sum(revenue_cents), sum(released_holds)
          from moved
         group by day, kind, key
         order by kind, day, key
            on conflict (kind, day, key) do update
           set rides = s.rides + excluded.rides,
               cancellations = s.cancellations + excluded.cancellations,
               seconds = s.seconds + excluded.seconds,
               revenue_cents = s.revenue_cents + excluded.revenue_cents,
               released_holds = s.released_holds + excluded.released_holds
        returning 1
      ), counted as (
        delete from contatori_delta returning nome, delta
      ), counters as (
        insert into contatori as c (nome, valore)
        select nome, sum(delta) from counted group by nome order by nome
            on conflict (nome) do update set valore = c.valore + excluded.valore
        returning 1
      )
      select (select count(*) from moved)::int as moved`),
  );
  return result.rows[0]!.moved;
}
