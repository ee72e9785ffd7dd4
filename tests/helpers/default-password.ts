/**
 * The password of the accounts the factories make (factories.ts). A module of its own, with no
 * imports: the log scan run after every test file (scan-logs-after-file.ts) knows it as a secret
 * without loading the server's schema, auth and argon2 into a file that tests none of them.
 */
export const DEFAULT_PASSWORD = 'Bici-Prova-2026';
