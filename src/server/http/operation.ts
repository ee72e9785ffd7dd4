/**
 * What the OpenAPI document says of an /api route beyond its zod schemas (decision 031): each
 * module declares its routes' entries beside them (an operations.ts in each module's folder), keyed like the
 * authorisation matrix (`METHOD /api/path/:param`); src/server/api-docs/ assembles them.
 * Parameters, query strings and bodies are NOT here: they come from the zod schemas the route
 * validates with (fastify-type-provider-zod's jsonSchemaTransform).
 */
import type { PlainKey } from '../../shared/schemas/message.js';

/** Who may call the route, which decides its `security` and its 401/403/404 answers. */
export type Access =
  /** Anyone, no session. */
  | 'public'
  /** A logged-in user (session cookie); 401 without it. */
  | 'user'
  /** A logged-in user, on a resource of their own: someone else's is 404 (behaviour.md §4). */
  | 'owner'
  /** An admin (session cookie): 401 anonymous, 403 for a user. */
  | 'admin'
  /** The session of that user or the short-lived password-change cookie; otherwise 403. */
  | 'password-change'
  /** The pending second-factor cookie of the login (decision 030); otherwise 403. */
  | 'second-factor'
  /** No session: the token in the path is the credential (the private calendar feed). */
  | 'token'
  /** No session: the payment provider's signature (`Stripe-Signature`) is the credential. */
  | 'signature';

export interface Operation {
  summary: string;
  access: Access;
  /** The success status; 200 unless said. */
  ok?: 200 | 201 | 204;
  /** What a success answers, in a few words (the response's description). */
  returns?: string;
  /** The success answer's media type when it is not JSON (a file). */
  media?: 'text/csv' | 'application/pdf' | 'text/calendar' | 'text/event-stream' | 'image/jpeg';
  /** Refusals particular to the route: the catalogue keys the services throw (the document gives their Italian). */
  errors?: Partial<Record<400 | 403 | 404 | 409 | 503, PlainKey | PlainKey[]>>;
  /** Rate limited (behaviour.md §5): 429 with Retry-After. */
  rateLimited?: boolean;
}

/** A module's entries: its group on the reference page (tag), and one entry per route it registers. */
export interface ModuleOperations {
  tag: { name: string; description: string };
  routes: Record<string, Operation>;
}

/** An entry: who may call the route, what it does, and what else it says (`ok`, `errors`, …). */
export function op(access: Access, summary: string, rest: Omit<Operation, 'summary' | 'access'> = {}): Operation {
  return { summary, access, ...rest };
}
