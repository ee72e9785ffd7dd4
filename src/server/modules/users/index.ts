/*
 * The users module's public face: what other modules and the app may use (issue 31,
 * docs/ARCHITECTURE.md). Everything else in the folder is the module's own.
 */
export { toPublicUser } from './public-user.js';
export { clearExpiredTempPasswords } from './erasure.js';
export {
  activateTotp,
  clearTotp,
  deleteUserRow,
  insertAccounts,
  insertResidentAccounts,
  insertUser,
  type NewUser,
  recordSuspensionLifted,
  recordTotpStep,
  replacePassword,
  setTemporaryPassword,
  storeTotpSecret,
  type UserAccountFields,
  updateUserAccount,
  updateUserName,
  updateUserLingua,
  type UsersDb,
} from './store.js';
export { needsTwoFactorEnrolment, sessionUserBody, sessionUserColumns } from './session-user.js';
