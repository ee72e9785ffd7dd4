/**
 * The account screens other than login, one chunk (screens.tsx): registration, password
 * recovery, the change of a temporary password, the login's code step (decision 030) and the
 * college account's completion form (issue 49),
 * with react-hook-form and zod.
 */
export { CollegeCompletionPage } from './college-completion-page';
export { ChangePasswordPage } from './change-password-page';
export { RecoveryPage } from './recovery-page';
export { RegistrationPage } from './registration-page';
export { TwoFactorLoginPage } from './two-factor-login-page';
