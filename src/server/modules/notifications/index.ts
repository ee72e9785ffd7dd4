/*
 * The notifications module's public face: what other modules and the app may use (issue 31,
 * docs/ARCHITECTURE.md). Everything else in the folder is the module's own.
 */
export { activeAdminEmails, activeAdmins, linguaOfEmail, type NoticeInLingua, type NotifyDeps, notifyUser, type PushSender, type UserNotice } from './notify.js';
export { createPushSender, type PushSenderOptions } from './push.js';
export { deleteExpiredPushSubscriptions, deletePushSubscription, type PushSubscriptionRow, savePushSubscription } from './subscriptions.js';
