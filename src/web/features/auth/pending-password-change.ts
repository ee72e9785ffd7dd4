/**
 * When login answers "password change required", the user id it returns is kept here for
 * the change-password screen (spec §2 "Login screen"). It is not a secret: the server
 * authorises the change with its own short-lived HttpOnly cookie.
 */
const STORAGE_KEY = 'bicielis.passwordChangeUserId';

export function rememberPasswordChangeUser(userId: number): void {
  try {
    localStorage.setItem(STORAGE_KEY, String(userId));
  } catch {
    // Storage can be unavailable (private mode); the change screen then asks to log in again.
  }
}

export function pendingPasswordChangeUser(): number | null {
  try {
    const value = Number.parseInt(localStorage.getItem(STORAGE_KEY) ?? '', 10);
    return Number.isInteger(value) && value > 0 ? value : null;
  } catch {
    return null;
  }
}

export function forgetPasswordChangeUser(): void {
  try {
    localStorage.removeItem(STORAGE_KEY);
  } catch {
    // Nothing to forget when storage is unavailable.
  }
}
