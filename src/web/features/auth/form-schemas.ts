import { changePasswordSchema, registerSchema } from '../../../shared/schemas/auth';
import { msg } from '../../../shared/schemas/message';
import { z } from '../../../shared/zod-it';
import { t } from '../../lib/i18n';

/**
 * The forms' schemas: the shared request schemas of the API (src/shared/schemas/auth.ts)
 * plus the fields only the form has (the confirmation of the password). The request is
 * the API schema's output, picked from the form's output. Their own messages are put into the
 * app's language when a check fails (issue 36).
 */

/** Registration: the API body plus `confermaPassword`, which must equal `password`. */
export const registrationFormSchema = registerSchema
  .extend({ confermaPassword: z.string().min(1, msg('schemas.requiredFields')) })
  .refine((v) => v.confermaPassword === '' || v.password === v.confermaPassword, {
    error: () => t('formSchemas.passwordsDifferRegistration'),
    path: ['confermaPassword'],
  });
export type RegistrationFormInput = z.input<typeof registrationFormSchema>;

/**
 * With several open sedi (issue 47) the home sede is required: the form shows its picker. With
 * one, the schema is the one above, untouched.
 */
export function registrationFormSchemaFor(severalSedi: boolean) {
  if (!severalSedi) return registrationFormSchema;
  return registrationFormSchema.refine((v) => v.sedeId !== undefined, {
    error: () => t('sediRegistration.required'),
    path: ['sedeId'],
  });
}
export type RegistrationFormOutput = z.output<typeof registrationFormSchema>;

/** Change of a temporary password: the new one twice. The user id comes from the page. */
export const changePasswordFormSchema = z
  .object({
    newPassword: changePasswordSchema.shape.newPassword,
    confermaPassword: z.string().min(1, { error: () => t('formSchemas.changeRequired') }),
  })
  .refine((v) => v.confermaPassword === '' || v.newPassword === v.confermaPassword, {
    error: () => t('formSchemas.passwordsDifferChange'),
    path: ['confermaPassword'],
  });
export type ChangePasswordFormInput = z.input<typeof changePasswordFormSchema>;
export type ChangePasswordFormOutput = z.output<typeof changePasswordFormSchema>;

/** The user id of the change-password screen: `?userId=` first, then the one login stored. */
export function passwordChangeUserId(search: string, stored: number | null): number | null {
  const fromQuery = new URLSearchParams(search).get('userId');
  if (fromQuery !== null) {
    const parsed = changePasswordSchema.shape.userId.safeParse(fromQuery);
    if (parsed.success) return parsed.data;
  }
  return stored;
}
