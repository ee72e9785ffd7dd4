import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { mayAt, sediFor, type StaffCapability } from '../../shared/staff.js';
import { authenticatedUser, requireAdmin, requireUser, type SessionUser } from './auth.js';
import { forbidden, notFound } from './errors.js';

/**
 * Staff scoped to their sedi (issue 48, decision 054). A route a `Portineria` or an `Officina` may
 * use is guarded by `requireCapability(c)`: 401 anonymous, 403 for anyone with no role that
 * carries `c` at any sede (and the admins' own checks for an admin: `requireAdmin`). The route
 * then keeps to the sedi of `scopeOf(request, c)`: a list is filtered to them, and a resource of
 * another sede answers 404 (`mustReach`), as if it did not exist, so nothing outside the scope
 * is told.
 */
export function requireCapability(capability: StaffCapability) {
  return function requireCapabilityHook(request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void {
    requireUser(request, reply, (error?: Error) => {
      if (error) return done(error);
      const user = request.user!;
      if (user.ruolo === 'admin') return requireAdmin(request, reply, done);
      const sedi = sediFor(user, capability);
      if (sedi !== 'all' && sedi.length === 0) return done(forbidden());
      done();
    });
  };
}

/** The sedi a request's user may use a capability at: `'all'` for an admin. */
export function scopeOf(request: FastifyRequest, capability: StaffCapability): 'all' | number[] {
  return sediFor(authenticatedUser(request), capability);
}

/**
 * The sedi a list answers for: the one asked (`?sedeId=`) if it is in scope, else all of the
 * scope; null means every sede (an admin who asked for none). A sede out of scope is 404.
 */
export function listScope(request: FastifyRequest, capability: StaffCapability, asked: number | undefined): number[] | null {
  const scope = scopeOf(request, capability);
  if (asked !== undefined) {
    if (scope !== 'all' && !scope.includes(asked)) throw notFound();
    return [asked];
  }
  return scope === 'all' ? null : scope;
}

/** 404 unless the request's user may use the capability at the resource's sede (null: not found at all). */
export function mustReach(user: SessionUser, capability: StaffCapability, sedeId: number | null | undefined): void {
  if (sedeId === null || sedeId === undefined || !mayAt(user, capability, sedeId)) throw notFound();
}

/** The role an actor acted in, for the audit log: `admin`, or the staff role that carries the capability at that sede. */
export function actingRole(user: SessionUser, capability: StaffCapability, sedeId: number | null): 'admin' | 'portineria' | 'officina' | null {
  if (user.ruolo === 'admin') return 'admin';
  const role = user.incarichi.find((i) => (sedeId === null || i.sedeId === sedeId) && mayAt({ ruolo: 'user', incarichi: [i] }, capability, i.sedeId));
  return role?.ruolo ?? null;
}
