/*
 * The auth module's public face: what other modules and the app may use (issue 31,
 * docs/ARCHITECTURE.md). Everything else in the folder is the module's own.
 */
export { AUTH_RATE_LIMITS, tooManyAttempts, tooManyAttemptsMessage } from './limits.js';
export { hashPassword, verifyPassword } from './password.js';
export { AUTH_CHANNEL, SessionCache } from './session-cache.js';
export { createSession, type DbOrTx, deleteSessionByHash, endAllSessionsOfUser, findSession, hashSessionToken, purgeExpiredSessions, sessionStore, type SessionUser } from './sessions.js';
export { endOtherSessionsOfUser } from './sessions.js';
