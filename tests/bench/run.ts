/**
 * `npm run bench`: every benchmark, with numbers and targets. Not part of `npm test`.
 * `npm run bench -- startup` runs one.
 */
import { benchAdminSummary } from './admin-summary.js';
import { benchAvailability } from './availability.js';
import { benchBookingFloor } from './booking-floor.js';
import { benchBookingProfile } from './booking-profile.js';
import { benchBookings } from './bookings.js';
import { benchBurst } from './burst.js';
import { benchExplain } from './explain.js';
import { benchFirstTap } from './first-tap.js';
import { benchGuard } from './guard.js';
import { benchLighthouse } from './lighthouse.js';
import { benchLogin } from './login.js';
import { benchMemory } from './memory.js';
import { benchOpens } from './opens.js';
import { benchPictureSizes } from './picture-sizes.js';
import { benchRenderCost } from './render-cost.js';
import { benchReport } from './report.js';
import { benchScale } from './scale.js';
import { benchStartup } from './startup.js';
import { benchStats } from './stats.js';
import { benchWaitlist } from './waitlist.js';

const benches: Record<string, () => Promise<boolean>> = {
  startup: benchStartup,
  availability: benchAvailability,
  bookings: benchBookings,
  'booking-floor': benchBookingFloor,
  'booking-profile': benchBookingProfile,
  login: benchLogin,
  report: benchReport,
  stats: benchStats,
  waitlist: benchWaitlist,
  lighthouse: benchLighthouse,
  opens: benchOpens,
  'first-tap': benchFirstTap,
  guard: benchGuard,
  explain: benchExplain,
  burst: benchBurst,
  scale: benchScale,
  'render-cost': benchRenderCost,
  memory: benchMemory,
  'admin-summary': benchAdminSummary,
  'picture-sizes': benchPictureSizes,
};

// Names of benches to run; flags (`--record`) are the benches' own.
const only = process.argv.slice(2).filter((a) => !a.startsWith('--'));
let ok = true;
for (const [name, run] of Object.entries(benches)) {
  if (only.length > 0 && !only.includes(name)) continue;
  ok = (await run()) && ok;
}
console.log(ok ? '\nAll benchmark targets met.' : '\nSome benchmark targets were missed.');
process.exit(ok ? 0 : 1);
