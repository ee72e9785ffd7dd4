import { lazy, Suspense, type ComponentType, type RefObject } from 'react';
import { loadDomains } from '../../lib/i18n';
import { useHydrated } from '../../lib/hydrated';

type Props = { form: RefObject<HTMLFormElement | null> };

// A chunk that cannot come (offline) leaves the login as it was: the password still works.
const PasskeyLogin = lazy<ComponentType<Props>>(() =>
  Promise.all([import('./passkey-login-button'), loadDomains('account')]).then(
    ([m]) => ({ default: m.PasskeyLoginButton }),
    () => ({ default: () => null }),
  ),
);

/**
 * The login's passkeys (issue 49): once the page is live and the browser has WebAuthn, the
 * `Accedi con una passkey` button and the email field's autofill, both in a chunk of their own
 * (the first download has no room). The row is kept in the HTML, so nothing moves when it comes.
 */
export function PasskeyLoginSlot({ form }: Props) {
  const live = useHydrated() && 'PublicKeyCredential' in window;
  return <div className="min-h-12">{live && <Suspense><PasskeyLogin form={form} /></Suspense>}</div>;
}
