import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { Db } from '../../src/server/db/client.js';
import { residenti, users, type Resident, type User } from '../../src/server/schema.js';
import { SESSION_COOKIE } from '../../src/server/http/auth.js';
import { hashPassword } from '../../src/server/modules/auth/password.js';
import { normaliseEmail } from '../../src/shared/sigla.js';
import { DEFAULT_PASSWORD } from './default-password.js';

/** The password of every factory user unless told otherwise; its hash is computed once. */
export { DEFAULT_PASSWORD };

const hashes = new Map<string, Promise<string>>();
/** argon2id of a password, computed once per test process (tests stay fast). */
export function cachedHash(password: string): Promise<string> {
  let hash = hashes.get(password);
  if (!hash) {
    hash = hashPassword(password);
    hashes.set(password, hash);
  }
  return hash;
}

let sequence = 0;
const unique = () => `${process.pid}${++sequence}`;

export type UserOverrides = Partial<Omit<typeof users.$inferInsert, 'passwordHash'>> & {
  /** Plain password to hash (cached); default DEFAULT_PASSWORD. */
  password?: string;
};

/**
 * Inserts a user straight into the database (role `user`, external, active unless told
 * otherwise) and returns the row with its plain password. With `siglaResidente`, the
 * resident code must exist (see createResident) and `isResidente` defaults to true.
 */
export async function createUser(db: Db, overrides: UserOverrides = {}): Promise<User & { password: string }> {
  const { password = DEFAULT_PASSWORD, ...fields } = overrides;
  const n = unique();
  const [row] = await db
    .insert(users)
    .values({
      nome: 'Utente',
      cognome: `Prova${n}`,
      email: `utente${n}@example.it`,
      isResidente: Boolean(fields.siglaResidente),
      ...fields,
      ...(fields.email ? { email: normaliseEmail(fields.email) } : {}),
      passwordHash: await cachedHash(password),
    })
    .returning();
  return { ...row!, password };
}

/** Inserts a resident code (active unless told otherwise); the sigla is stored upper-case. */
export async function createResident(db: Db, overrides: Partial<typeof residenti.$inferInsert> = {}): Promise<Resident> {
  const n = unique();
  const [row] = await db
    .insert(residenti)
    .values({
      sigla: `RES${n}`,
      nome: 'Residente',
      cognome: `Prova${n}`,
      corsoDiStudi: 'Ingegneria',
      annoCorso: 2,
      attivo: true,
      ...overrides,
      ...(overrides.sigla ? { sigla: overrides.sigla.toUpperCase() } : {}),
    })
    .returning();
  return row!;
}

/** `name=value` of a cookie set by a response, ready for a `cookie` request header; or undefined. */
export function cookieFrom(res: LightMyRequestResponse, name: string = SESSION_COOKIE): string | undefined {
  const cookie = res.cookies.find((c) => c.name === name && c.value !== '');
  return cookie ? `${cookie.name}=${cookie.value}` : undefined;
}

/** Logs in through the API and returns the session cookie header (`bicielis_session=…`). */
export async function loginAs(app: FastifyInstance, email: string, password: string = DEFAULT_PASSWORD): Promise<string> {
  const res = await app.inject({ method: 'POST', url: '/api/login', payload: { email, password } });
  const cookie = cookieFrom(res);
  if (res.statusCode !== 200 || !cookie) {
    throw new Error(`loginAs(${email}) failed: ${res.statusCode} ${res.body}`);
  }
  return cookie;
}

/** A user (see createUser) already logged in: the row, its password and its session cookie. */
export async function createLoggedInUser(app: FastifyInstance, db: Db, overrides: UserOverrides = {}) {
  const user = await createUser(db, overrides);
  const cookie = await loginAs(app, user.email, user.password);
  return { user, cookie };
}
