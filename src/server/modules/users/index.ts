/* The users module's public face (issue 31): all that others may import; the rest of the folder is its own. */
export { toPublicUser } from './public-user.js';
export { clearExpiredTempPasswords } from './erasure.js';
export {
  activateTotp,
  clearTotp,
  deleteUserRow,
  insertAccounts,
  insertResidentAccounts,
  insertUser,
  moveHomeSede,
  recordSuspensionLifted,
  recordTotpStep,
  replaceIncarichi,
  replacePassword,
  setPasskeySecondFactor,
  setTemporaryPassword,
  storeTotpSecret,
  updateUserAccount,
  updateUserName,
  updateUserLingua,
  updateUserSede,
} from './store.js';
export { needsTwoFactorEnrolment, sessionUserBody, sessionUserColumns } from './session-user.js';
