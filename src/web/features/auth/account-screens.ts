/**
 * The account screens other than login, one chunk (screens.tsx): registration, password
 * recovery, the change of a temporary password and the login's code step (decision 030),
 * with react-hook-form and zod.
 */
export { ChangePasswordPage } from './change-password-page';
export { RecoveryPage } from './recovery-page';
export { RegistrationPage } from './registration-page';
export { TwoFactorLoginPage } from './two-factor-login-page';
