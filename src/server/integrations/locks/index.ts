import type { Clock } from '../../clock.js';
import type { Config } from '../../config.js';
import type { LockProvider } from './provider.js';
import { SimulatedLockProvider } from './simulated-provider.js';
import { TtlockProvider } from './ttlock-provider.js';

export {
  LOCK_ERROR_MESSAGES,
  LockProviderError,
  type LockErrorReason,
  type LockProvider,
} from './provider.js';
export { SimulatedLockProvider, type SimulatedPin } from './simulated-provider.js';
export { TtlockProvider, type TtlockSettings } from './ttlock-provider.js';

/** TTLock when LOCK_PROVIDER=ttlock (its credentials checked by loadConfig), otherwise the simulated provider. */
export function lockProviderFromConfig(config: Pick<Config, 'locks'>, clock: Clock): LockProvider {
  if (config.locks.provider === 'ttlock') return new TtlockProvider(config.locks.ttlock, clock);
  return new SimulatedLockProvider();
}
