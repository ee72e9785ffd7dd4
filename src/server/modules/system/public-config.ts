import type { PublicConfig } from '../../../shared/api-types.js';
import { APP_VERSION } from '../../../shared/constants.js';
import type { Config } from '../../config.js';
import { currentRules } from '../rules/index.js';

/**
 * GET /api/config: the only server settings the page may see. Also what the server renders
 * /dashboard with (pages/server-render.ts).
 */
export async function publicConfig(
  config: Pick<Config, 'env' | 'stripe' | 'timeZone' | 'privacy' | 'oidc'>,
  from: Parameters<typeof currentRules>[0],
): Promise<PublicConfig> {
  // The horizon and the no-show minutes are the service's rules (issue 20), as of now; the
  // open sedi (issue 47) for the registration's picker, read with them.
  const rules = await currentRules(from);
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
    sedi: rules.sediAperte.map((s) => ({ id: s.id, nome: s.nome })),
    accessoCollegio: config.oidc ? { etichetta: config.oidc.label } : null,
  };
}
