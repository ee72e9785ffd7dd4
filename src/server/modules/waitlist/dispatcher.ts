import { sql } from 'drizzle-orm';
import { CoalescedDrain } from '../../lib/coalesced-drain.js';
import type { Clock } from '../../clock.js';
import type { Db } from '../../db/client.js';
import type { NotifiedCache } from '../../db/notifications.js';
import { currentRules, type RulesCache } from '../rules/index.js';
import { announceOffers, runOfferPass, type OfferNotifyDeps, type PassResult } from './offers.js';

/** The channel the freed-time triggers notify (drizzle/0018_freed_time.sql). */
export const FREED_TIME_CHANNEL = 'bicielis_tempo_liberato';

export interface FreedTimeDeps extends OfferNotifyDeps {
  db: Db;
  clock: Clock;
  log: OfferNotifyDeps['log'] & { warn?(obj: object, msg: string): void };
  rulesCache?: RulesCache | undefined;
  /**
   * Run before each offer pass (app.ts gives the fleet's heal, issue 35): a booking whose bike is
   * out takes a freed bike before any waitlist offer for its window.
   */
  beforePass?: (() => Promise<void>) | undefined;
}

/** How many events one claim takes: the pass covers every bike anyway, one pass per claim. */
export const CLAIM_BATCH = 1_000;

/**
 * Claims freed-time events (any number of them: one pass serves them all) and deletes them:
 * the first process to get a row has it (`skip locked`), the others pass over it. The count
 * of claimed events; 0 when there was none to claim.
 */
export async function claimFreedTime(db: Db): Promise<number> {
  const { rows } = await db.execute<{ id: number }>(sql`
    delete from tempo_liberato where id in (
      select id from tempo_liberato order by id limit ${CLAIM_BATCH} for update skip locked)
    returning id`);
  return rows.length;
}

/**
 * The offer pass at the clock's now with the rules' offer minutes, then the announcement of
 * every offer not announced yet (email and push, each claimed once). The dispatcher's
 * reaction to freed time, and the minute job's backstop.
 */
export async function passAndAnnounce(deps: FreedTimeDeps, force = false): Promise<PassResult & { announced: number }> {
  const now = deps.clock.now();
  const rules = await currentRules(deps);
  const pass = await runOfferPass(deps.db, now, rules.offertaMinuti, force);
  const announced = await announceOffers(deps, now);
  return { ...pass, announced };
}

/**
 * Freed time is one event (issue 31, decision 035). The database records every change that
 * frees a bike's time (or withdraws an offer) in `tempo_liberato`, in the change's own
 * transaction, and NOTIFYs FREED_TIME_CHANNEL. One dispatcher per process listens (main.ts
 * puts it on the process's LISTEN connection, db/notifications.ts), claims the events after
 * the commit and runs the offer pass and its notices; whichever process claims an event
 * serves it, and the passes themselves run one at a time across processes (WAITLIST_LOCK).
 * The minute job runs the same pass as a backstop (a process that stopped between its claim
 * and its pass, a NOTIFY lost while the listener was reconnecting).
 *
 * Drains run one at a time in a process: a wake-up during a drain asks for one more round.
 * `settled()` resolves once every event committed before the call has been claimed, and
 * those this process claimed served (a test's deterministic wait; with one process, every
 * offer the change leads to is made and announced).
 */
export class FreedTimeDispatcher extends CoalescedDrain implements NotifiedCache {
  constructor(private readonly deps: FreedTimeDeps) {
    super(
      async () => {
        while ((await claimFreedTime(deps.db)) > 0) {
          await deps.beforePass?.();
          await passAndAnnounce(deps);
        }
      },
      // The change itself committed; the minute job runs the pass again.
      (err) => deps.log.error({ err }, 'waitlist offer pass failed'),
    );
  }

  /**
   * Resolves once the events committed before this call are claimed (this process's served)
   * and one pass has run at the clock's now, as the minute job's would: the lines as of now.
   * A deterministic wait for tests; the app itself never waits for it.
   */
  override async settled(): Promise<void> {
    await super.settled();
    await this.deps.beforePass?.();
    await passAndAnnounce(this.deps);
  }
}
