/**
 * The account screens other than login, one chunk (screens.tsx): registration, password
 * recovery and the change of a temporary password, with react-hook-form and zod.
 */
export { ChangePasswordPage } from './change-password-page';
export { RecoveryPage } from './recovery-page';
export { RegistrationPage } from './registration-page';
