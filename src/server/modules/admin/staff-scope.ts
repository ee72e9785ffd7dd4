import { eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { StaffCapability } from '../../../shared/staff.js';
import type { Db } from '../../db/client.js';
import { authenticatedUser } from '../../http/auth.js';
import { actingRole, listScope, mustReach } from '../../http/scope.js';
import type { Actor } from '../audit/index.js';
import { biciclette } from '../bikes/tables.js';
import { prenotazioni } from '../bookings/tables.js';
import { interventi } from '../interventi/tables.js';
import { chiusure, manutenzioni } from '../closures/tables.js';

/**
 * The staff's reach into /api/admin (issue 48, decision 054): each route a role may use names its
 * capability (`config.capability`, routes.ts); the route then keeps to the user's sedi. A
 * resource of another sede answers 404 (`mustReach`), a list keeps to the scope (`listScope`),
 * and the audit's actor carries the role the person acted in (`actingRole`; 'admin' for an admin).
 */

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The staff capability an /api/admin route answers to (issue 48); absent: admins only. */
    capability?: StaffCapability;
  }
}

type ReadDb = Pick<Db, 'select'>;

/** The sede of a booking, a bike, a closure, a planned maintenance or a damage report: undefined when there is none. */
export const sedeOf = {
  async booking(db: ReadDb, id: number): Promise<number | undefined> {
    const [row] = await db.select({ sedeId: prenotazioni.sedeId }).from(prenotazioni).where(eq(prenotazioni.id, id));
    return row?.sedeId;
  },
  async bike(db: ReadDb, id: number): Promise<number | undefined> {
    const [row] = await db.select({ sedeId: biciclette.sedeId }).from(biciclette).where(eq(biciclette.id, id));
    return row?.sedeId;
  },
  /** null: a closure of every sede. */
  async closure(db: ReadDb, id: number): Promise<number | null | undefined> {
    const [row] = await db.select({ sedeId: chiusure.sedeId }).from(chiusure).where(eq(chiusure.id, id));
    return row ? row.sedeId : undefined;
  },
  async maintenance(db: ReadDb, id: number): Promise<number | undefined> {
    const [row] = await db
      .select({ sedeId: biciclette.sedeId })
      .from(manutenzioni)
      .innerJoin(biciclette, eq(biciclette.id, manutenzioni.biciId))
      .where(eq(manutenzioni.id, id));
    return row?.sedeId;
  },
  async damage(db: ReadDb, id: number): Promise<number | undefined> {
    // A damage report is a repair ticket (issue 48): its sede is the ticket's.
    const [row] = await db.select({ sedeId: interventi.sedeId }).from(interventi).where(eq(interventi.id, id));
    return row?.sedeId;
  },
  /** Every bike's sede, by id (a few hundred bikes at most). */
  async bikes(db: ReadDb): Promise<Map<number, number>> {
    const rows = await db.select({ id: biciclette.id, sedeId: biciclette.sedeId }).from(biciclette);
    return new Map(rows.map((r) => [r.id, r.sedeId]));
  },
};

/** The actor of an admin's or a staff member's action: their role at the sede acted on. */
export function actorAt(request: FastifyRequest, capability: StaffCapability, sedeId: number | null): Actor {
  const user = authenticatedUser(request);
  const ruolo = actingRole(user, capability, sedeId) ?? 'admin';
  return { id: user.id, email: user.email, ruolo };
}

/**
 * 404 unless the request's user may use `capability` at the resource's sede (undefined: no such
 * resource; null: a thing of every sede, which only an admin reaches). Returns the actor.
 */
export function reach(request: FastifyRequest, capability: StaffCapability, sedeId: number | null | undefined): Actor {
  const user = authenticatedUser(request);
  if (user.ruolo !== 'admin') mustReach(user, capability, sedeId);
  return actorAt(request, capability, sedeId ?? null);
}

/**
 * A list's sedi (`?sedeId=` in scope, else the whole scope; null: every sede, an admin's), and
 * the single sede a one-sede service may be asked for (undefined: all, filtered after).
 */
export function scopedList(request: FastifyRequest, capability: StaffCapability, asked: number | undefined) {
  const sedi = listScope(request, capability, asked);
  return {
    sedi,
    one: sedi?.length === 1 ? sedi[0] : undefined,
    keeps: (sedeId: number | null): boolean => sedi === null || (sedeId !== null && sedi.includes(sedeId)),
  };
}

/** The one sede a staff member's single-sede route is about: the asked one (in scope), else the first of theirs. */
export function defaultSede(request: FastifyRequest, capability: StaffCapability, asked: number | undefined): number | undefined {
  const sedi = listScope(request, capability, asked);
  return sedi === null ? undefined : sedi[0];
}
