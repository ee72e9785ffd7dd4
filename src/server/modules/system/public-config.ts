import type { PublicConfig } from '../../../shared/api-types.js';
import { APP_VERSION } from '../../../shared/constants.js';
import type { Config } from '../../config.js';
import { currentRules } from '../rules/index.js';
import { openSedi, type SediCache } from '../sedi/index.js';

/**
 * GET /api/config: the only server settings the page may see. Also what the server renders
 * /dashboard with (pages/server-render.ts).
 */
export async function publicConfig(
  config: Pick<Config, 'env' | 'stripe' | 'timeZone' | 'privacy'>,
  from: Parameters<typeof currentRules>[0] & { sediCache?: SediCache | undefined },
): Promise<PublicConfig> {
  // The horizon and the no-show minutes are the service's rules (issue 20), as of now; the
  // open sedi (issue 47) for the registration's picker. Both from the process's caches.
  const [rules, sedi] = await Promise.all([currentRules(from), openSedi(from)]);
  return {
    version: APP_VERSION,
    production: config.env === 'production',
    payment: config.stripe
      ? { provider: 'stripe', publishableKey: config.stripe.publishableKey }
      : { provider: 'simulated', publishableKey: null },
    timeZone: config.timeZone,
    bookingHorizonDays: rules.orizzonteGiorni,
    noShowMinutes: rules.mancatoRitiroMinuti,
    privacy: config.privacy,
    sedi,
  };
}
