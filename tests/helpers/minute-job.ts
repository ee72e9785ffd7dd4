import { applyLifecycle } from '../../src/server/modules/bookings/lifecycle.js';
import { currentRules, lifecycleMinutes } from '../../src/server/modules/rules/store.js';
import type { TestContext } from './app.js';

/**
 * What the minute job writes at the test clock's now (decision 035: reads compute the life
 * cycle and write nothing; the job writes it down): the life cycle with the rules' minutes,
 * then the waitlists as the freed-time dispatcher leaves them. For a test that moved the clock
 * and checks the stored rows.
 */
export async function minuteJob(ctx: Pick<TestContext, 'app' | 'clock' | 'database'>): Promise<void> {
  const db = ctx.database.db;
  const { hold, noShow } = lifecycleMinutes(await currentRules({ db }));
  await applyLifecycle(db, ctx.clock.now(), hold, noShow, ctx.app.deps.metrics);
  await ctx.app.freedTime.settled();
}
