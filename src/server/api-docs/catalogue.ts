/**
 * The catalogue of the OpenAPI document (decision 031): every module's operations
 * (modules/<m>/operations.ts: summary, who may call, success answer, Italian refusals), in
 * the order the reference page shows the modules. tests/api/openapi.test.ts fails when a
 * registered route has no entry here, or an entry names no route.
 */

import type { ModuleOperations, Operation } from '../http/operation.js';
import { adminOperations } from '../modules/admin/operations.js';
import { authOperations } from '../modules/auth/operations.js';
import { bookingOperations } from '../modules/bookings/operations.js';
import { calendarOperations } from '../modules/calendar/operations.js';
import { fleetOperations } from '../modules/fleet/operations.js';
import { interventiOperations } from '../modules/interventi/operations.js';
import { lockOperations } from '../modules/locks/operations.js';
import { passkeyOperations } from '../modules/passkeys/operations.js';
import { paymentOperations } from '../modules/payments/operations.js';
import { privacyOperations } from '../modules/privacy/operations.js';
import { profileOperations } from '../modules/profile/operations.js';
import { rackOperations } from '../modules/rack/operations.js';
import { sediOperations } from '../modules/sedi/operations.js';
import { reportOperations } from '../modules/reports/operations.js';
import { statsOperations } from '../modules/stats/operations.js';
import { systemOperations } from '../modules/system/operations.js';
import { twoFactorOperations } from '../modules/two-factor/operations.js';
import { waitlistOperations } from '../modules/waitlist/operations.js';

/** The modules, in the order the reference page shows them. */
const MODULES = {
  sistema: systemOperations,
  account: authOperations,
  dueFattori: twoFactorOperations,
  passkey: passkeyOperations,
  prenotazioni: bookingOperations,
  lucchetti: lockOperations,
  flotta: fleetOperations,
  interventi: interventiOperations,
  attese: waitlistOperations,
  pagamenti: paymentOperations,
  profilo: profileOperations,
  privacy: privacyOperations,
  calendario: calendarOperations,
  rastrelliera: rackOperations,
  sedi: sediOperations,
  report: reportOperations,
  amministrazione: adminOperations,
  statistiche: statsOperations,
} satisfies Record<string, ModuleOperations>;

export type TagKey = keyof typeof MODULES;

/** Each module's group on the reference page: its name and description. */
export const TAGS = Object.fromEntries(
  Object.entries(MODULES).map(([key, module]) => [key, module.tag]),
) as Record<TagKey, ModuleOperations['tag']>;

/** The operations by key, each with its module. */
export function operationIndex(): Map<string, Operation & { tag: string }> {
  const index = new Map<string, Operation & { tag: string }>();
  for (const module of Object.values(MODULES)) {
    for (const [key, op] of Object.entries(module.routes)) {
      if (index.has(key)) throw new Error(`Operazione documentata due volte: ${key}`);
      index.set(key, { ...op, tag: module.tag.name });
    }
  }
  return index;
}
