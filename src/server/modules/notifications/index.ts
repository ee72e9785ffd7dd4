/* The notifications module's public face (issue 31): all that others may import; the rest of the folder is its own. */
export { activeAdminEmails, activeAdmins, linguaOfEmail, type NoticeInLingua, type NotifyDeps, notifyUser, type PushSender, type UserNotice } from './notify.js';
export { createPushSender, type PushSenderOptions } from './push.js';
export { deleteExpiredPushSubscriptions, deletePushSubscription, type PushSubscriptionRow, savePushSubscription } from './subscriptions.js';
