/**
 * The login's passkeys (issue 49), loaded after the page is live: the button's sign-in and the
 * email field's autofill (a conditional-mediation request that waits until the person picks a
 * passkey among the field's suggestions). One ceremony at a time: the button's ends the
 * autofill's (the library aborts the previous one), and sending the form ends it too.
 */
import type { SessionUser } from '../../../shared/api-types';
import { toast } from '../../components/ui/use-toast';
import { ApiError } from '../../lib/api';
import { serverMessage } from '../../lib/api-errors';
import { t } from '../../lib/i18n';
import { autofillSupported, cancelCeremony, ceremonyCancelled, LOGIN_ENDPOINTS, signInWithPasskey } from '../../lib/webauthn';

type SignedIn = (user: SessionUser) => void;

function refused(error: unknown): void {
  toast({ variant: 'destructive', title: t('passkeyUi.loginErrorTitle'), description: serverMessage(error) ?? t('passkeyUi.loginFailed') });
}

/** The autofill's request on the login form, while the form is on the page. */
class Autofill {
  /** Bumped when the form is used: a request begun before is no longer wanted. */
  private generation = 0;
  private running = false;
  private detached = false;

  constructor(private readonly signedIn: SignedIn) {}

  async start(): Promise<void> {
    // Marked running before the first await: the form's focus while the support check is
    // pending must not begin a second request beside this one.
    if (this.running || this.detached) return;
    this.running = true;
    const generation = this.generation;
    const wanted = () => generation === this.generation && !this.detached;
    let again = false;
    try {
      if (!(await autofillSupported().catch(() => false)) || !wanted()) return;
      const user = await signInWithPasskey(LOGIN_ENDPOINTS, { autofill: true, stillWanted: wanted });
      if (wanted()) this.signedIn(user);
    } catch (error) {
      // Only a passkey the server refused is told (the person picked it), and offered again;
      // anything else (no connection, a dismissed request) waits for the form's next focus.
      again = error instanceof ApiError && error.status === 401 && wanted();
      if (again) refused(error);
    } finally {
      this.running = false;
    }
    if (again) await this.start();
  }

  /** No longer wanted; `abort` also ends the browser's request (the button's own ceremony ends it by itself). */
  stop(abort = true): void {
    this.generation += 1;
    if (abort && this.running) void cancelCeremony();
  }

  detach(): void {
    this.detached = true;
    this.stop();
  }
}

let current: Autofill | null = null;

/**
 * Starts the autofill's request on `form` (its email field has `autocomplete="username webauthn"`):
 * sending the form ends it, going back to a field of the form starts it again. Returns the detach.
 */
export function attachAutofill(form: HTMLFormElement, signedIn: SignedIn): () => void {
  const autofill = new Autofill(signedIn);
  current = autofill;
  const onSubmit = () => autofill.stop();
  const onFocus = () => void autofill.start();
  form.addEventListener('submit', onSubmit, true);
  form.addEventListener('focusin', onFocus);
  void autofill.start();
  return () => {
    form.removeEventListener('submit', onSubmit, true);
    form.removeEventListener('focusin', onFocus);
    autofill.detach();
    if (current === autofill) current = null;
  };
}

/**
 * The `Accedi con una passkey` button: the browser's own passkey dialog (the autofill's request
 * is ended by it). The session user, or null when the person gave up or was refused (told here).
 */
export async function signInFromButton(): Promise<SessionUser | null> {
  current?.stop(false);
  try {
    return await signInWithPasskey(LOGIN_ENDPOINTS);
  } catch (error) {
    if (ceremonyCancelled(error)) toast({ title: t('passkeyUi.loginCancelled') });
    else refused(error);
    // The suggestions are offered again.
    void current?.start();
    return null;
  }
}
