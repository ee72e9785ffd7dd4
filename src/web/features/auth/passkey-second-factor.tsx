import { FingerprintIcon } from 'lucide-react';
import { useState } from 'react';
import type { SessionUser } from '../../../shared/api-types';
import { Button, ButtonIcon } from '../../components/ui/button';
import { ApiError } from '../../lib/api';
import { serverMessage } from '../../lib/api-errors';
import { useT } from '../../lib/i18n';
import { ceremonyCancelled, SECOND_FACTOR_ENDPOINTS, signInWithPasskey } from '../../lib/webauthn';

/**
 * `Usa una passkey` at the login's code step (issue 49): one of the person's passkeys in place of
 * the code. `expired` (403: the pending state is gone) sends back to the login, as the code does;
 * any other refusal is said under the button.
 */
export function PasskeySecondFactor({ onUser, onExpired }: { onUser: (user: SessionUser) => void; onExpired: (message: string) => void }) {
  const t = useT();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | undefined>();
  if (typeof window === 'undefined' || !('PublicKeyCredential' in window)) return null;

  async function use() {
    if (pending) return;
    setPending(true);
    setError(undefined);
    try {
      onUser(await signInWithPasskey(SECOND_FACTOR_ENDPOINTS));
    } catch (err) {
      setPending(false);
      if (ceremonyCancelled(err)) return;
      const message = serverMessage(err) ?? t('passkeyUi.secondFactorFailed');
      if (err instanceof ApiError && err.status === 403) onExpired(message);
      else setError(message);
    }
  }

  return (
    <div className="grid gap-2 border-t pt-4">
      <p id="passkey-2fa-hint" className="text-sm text-muted-foreground">
        {t('passkeyUi.secondFactorHint')}
      </p>
      <Button variant="outline" size="lg" className="w-full" disabled={pending} aria-describedby="passkey-2fa-hint" onClick={() => void use()}>
        <ButtonIcon pending={pending} icon={<FingerprintIcon aria-hidden="true" />} />
        {t('passkeyUi.secondFactorButton')}
        {pending ? <span className="sr-only">{t('passkeyUi.secondFactorPending')}</span> : null}
      </Button>
      {error ? (
        <p role="alert" className="text-sm text-destructive">
          {error}
        </p>
      ) : null}
    </div>
  );
}
