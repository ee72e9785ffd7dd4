import { bigint, bigserial, date, index, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';

/** The columns the rollup and its pending changes share: a day's dimension value and its sums. */
const rollupColumns = () => ({
  day: date('day', { mode: 'string' }).notNull(),
  kind: text('kind', { enum: ['day', 'hour', 'bike', 'res', 'sede'] }).notNull(),
  key: integer('key').notNull(),
  rides: integer('rides').notNull().default(0),
  cancellations: integer('cancellations').notNull().default(0),
  seconds: bigint('seconds', { mode: 'number' }).notNull().default(0),
  revenueCents: bigint('revenue_cents', { mode: 'number' }).notNull().default(0),
  releasedHolds: integer('released_holds').notNull().default(0),
});

/**
 * The statistics' rollup (decision 017): per booking day, one row per dimension value —
 * `kind` 'day' (key 0), 'hour' (0–23, start in TZ_APP), 'bike' (bici_id), 'res' (1 resident,
 * 0 external), 'sede' (sede_id, issue 47: rides, cancellations, seconds and revenue of a sede). Kept exact by triggers on prenotazioni and pagamenti (drizzle/0005_stats.sql),
 * so GET /api/admin/stats reads at most ~90 rows a day instead of every booking.
 */
export const statsGiornaliere = pgTable(
  'stats_giornaliere',
  rollupColumns(),
  (t) => [primaryKey({ columns: [t.kind, t.day, t.key] })],
);

/**
 * The rollup's pending changes (decision 023): the triggers of 0005, redefined by 0010, only
 * insert here (no unique key: no writer ever waits for another), and the `stats-fold` job
 * moves them into `stats_giornaliere` every minute. Reads add the rows not yet folded.
 */
export const statsDelta = pgTable(
  'stats_delta',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    ...rollupColumns(),
  },
  (t) => [index('stats_delta_kind_day_idx').on(t.kind, t.day)],
);

/**
 * Counts of whole tables that the /admin summary shows (issue 51, decision 065): one row per
 * counter. `prenotazioni_attive` (bookings whose stored state is `attiva`) and `utenti` (people):
 * folded from `contatori_delta` by the `stats-fold` job; the value plus the counter's pending
 * deltas is the count, exact at every instant. `corse` and `cancellazioni`: the rollup's totals
 * (its 'day' rows' rides and cancellations), kept by the rollup's own triggers as the fold writes
 * it; the reads add `stats_delta`'s pending 'day' rows. A counter without a row is 0; a TRUNCATE
 * of a counted table deletes its counter's row and deltas.
 */
export const contatori = pgTable('contatori', {
  nome: text('nome', { enum: ['prenotazioni_attive', 'utenti', 'corse', 'cancellazioni'] }).primaryKey(),
  valore: bigint('valore', { mode: 'number' }).notNull().default(0),
});

/**
 * The counters' pending changes, as `stats_delta` is the rollup's (decision 023): the triggers
 * on prenotazioni and users only insert here (no unique key: no booking ever waits for another
 * on a shared row), and the `stats-fold` job moves them into `contatori` every minute.
 */
export const contatoriDelta = pgTable('contatori_delta', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  nome: text('nome', { enum: ['prenotazioni_attive', 'utenti'] }).notNull(),
  delta: bigint('delta', { mode: 'number' }).notNull(),
});
