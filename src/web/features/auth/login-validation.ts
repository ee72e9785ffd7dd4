import { loginSchema, REQUIRED_LOGIN_MESSAGE, type LoginRequest } from '../../../shared/schemas/auth';

export type LoginCheck =
  | { ok: true; request: LoginRequest; errors: Record<string, never> }
  | {
      ok: false;
      errors: Partial<Record<'email' | 'password', string>>;
      /** An empty field: the spec's "Campi obbligatori" toast is shown too. */
      missing: boolean;
      missingMessage: string;
    };

/**
 * The login form checked with the API's own schema (src/shared/schemas/auth.ts): one
 * message per field, the first zod gives. Loaded on demand by the login screen, so the
 * first download carries neither zod nor the schemas.
 */
export function checkLogin(values: { email: unknown; password: unknown }): LoginCheck {
  const parsed = loginSchema.safeParse({ email: values.email ?? '', password: values.password ?? '' });
  if (parsed.success) return { ok: true, request: parsed.data, errors: {} };
  const errors: Partial<Record<'email' | 'password', string>> = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0];
    if ((field === 'email' || field === 'password') && !errors[field]) errors[field] = issue.message;
  }
  // The schema's own "required" message, in the language it gives its messages in (issue 36).
  const missingMessage = loginSchema.shape.password.safeParse('').error?.issues[0]?.message ?? REQUIRED_LOGIN_MESSAGE;
  const missing = Object.values(errors).includes(missingMessage);
  return { ok: false, errors, missing, missingMessage };
}
