import type { Clock } from '../../clock.js';
import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import type { Mailer } from '../../integrations/mailer.js';
import type { PaymentProvider } from '../../integrations/payments/provider.js';
import type { AppMetrics } from '../../metrics.js';
import type { SessionCache } from '../auth/index.js';
import type { PaymentLog } from '../payments/index.js';

/** What the admin services need. */
export interface AdminDeps {
  db: Db;
  clock: Clock;
  config: Config;
  payments: PaymentProvider;
  mailer: Mailer;
  log: PaymentLog & { error(obj: object, msg: string): void };
  /** This process's session cache, if any: emptied at once for a deactivated or deleted user. */
  sessionCache?: SessionCache | undefined;
  /** The app's metrics (the life cycle's releases and the fleet's moves are counted). */
  metrics?: AppMetrics | undefined;
}

export type { Tx } from '../../db/transaction.js';

/** `q` as a literal ILIKE pattern: `%`, `_` and `\` match themselves. */
export function containsPattern(q: string): string {
  return `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
