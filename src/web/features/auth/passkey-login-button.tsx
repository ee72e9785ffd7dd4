import { FingerprintIcon } from 'lucide-react';
import { useEffect, useRef, useState, type RefObject } from 'react';
import { useLocation } from 'wouter';
import type { SessionUser } from '../../../shared/api-types';
import { Button, ButtonIcon } from '../../components/ui/button';
import { returnPathAfterLogin } from '../../lib/guards';
import { useT } from '../../lib/i18n';
import { useScreenRegistry } from '../../lib/screen-registry';
import { attachAutofill, signInFromButton } from './passkey-login';
import { welcome } from './welcome';

/**
 * `Accedi con una passkey` and, from when it shows, the email field's autofill request: a
 * passkey picked in either way logs in as the password does (welcome.ts).
 */
export function PasskeyLoginButton({ form }: { form: RefObject<HTMLFormElement | null> }) {
  const t = useT();
  const [location, navigate] = useLocation();
  const screens = useScreenRegistry();
  const [pending, setPending] = useState(false);
  const signedIn = useRef<(user: SessionUser) => void>(() => {});
  useEffect(() => {
    signedIn.current = (user) => welcome(user, navigate, screens, returnPathAfterLogin(location));
  }, [location, navigate, screens]);

  useEffect(() => {
    const element = form.current;
    return element ? attachAutofill(element, (user) => signedIn.current(user)) : undefined;
  }, [form]);

  async function click() {
    if (pending) return;
    setPending(true);
    const user = await signInFromButton();
    if (user) signedIn.current(user);
    else setPending(false);
  }

  return (
    <Button variant="outline" size="lg" className="w-full" disabled={pending} aria-busy={pending} onClick={() => void click()}>
      <ButtonIcon pending={pending} icon={<FingerprintIcon aria-hidden="true" />} />
      {t('passkeyUi.loginButton')}
      {pending ? <span className="sr-only">{t('passkeyUi.loginPending')}</span> : null}
    </Button>
  );
}
