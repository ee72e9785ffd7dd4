import { lazy, Suspense, type RefObject } from 'react';
import { loadDomains } from '../../lib/i18n';
import { useHydrated } from '../../lib/hydrated';

const PasskeyLogin = lazy(() =>
  Promise.all([import('./passkey-login-button'), loadDomains('account')]).then(([m]) => ({ default: m.PasskeyLoginButton })),
);

/**
 * The login's passkeys (issue 49): once the page is live and the browser has WebAuthn, the
 * `Accedi con una passkey` button and the email field's autofill, both in a chunk of their own
 * (the first download has no room). The row is kept in the HTML, so nothing moves when it comes.
 */
export function PasskeyLoginSlot({ form }: { form: RefObject<HTMLFormElement | null> }) {
  const live = useHydrated() && 'PublicKeyCredential' in window;
  return <div className="min-h-12">{live && <Suspense><PasskeyLogin form={form} /></Suspense>}</div>;
}
