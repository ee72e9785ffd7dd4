/* The auth module's public face (issue 31): all that others may import; the rest of the folder is its own. */
export { AUTH_RATE_LIMITS, tooManyAttempts, tooManyAttemptsMessage } from './limits.js';
export { hashPassword, verifyPassword } from './password.js';
export { AUTH_CHANNEL, SessionCache } from './session-cache.js';
export { createSession, type DbOrTx, deleteSessionByHash, endAllSessionsOfUser, findSession, hashSessionToken, purgeExpiredSessions, sessionStore, type SessionUser } from './sessions.js';
export { endOtherSessionsOfUser } from './sessions.js';
export { SIGN_IN_METHODS, type SignInMethod } from './tables.js';
export { describeDevice } from './device.js';
