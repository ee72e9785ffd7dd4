import { useQueryClient } from '@tanstack/react-query';
import { CircleCheckIcon, LayoutDashboardIcon } from 'lucide-react';
import { useEffect } from 'react';
import { useLocation } from 'wouter';
import { CHECKOUT_SUCCESS_REDIRECT_MS, EXTERNAL_FEE_CENTS } from '../../../shared/constants';
import { money } from '../../../shared/i18n/format';
import { useLingua, useT } from '../../lib/i18n';
import { LinkButton } from '../../components/link-button';
import { AuthShell } from '../../components/auth-shell';
import { OWN_BOOKINGS_QUERY_KEY } from '../dashboard';

/**
 * /checkout-success (spec §2): where the hosted checkout sends the browser back. Confirms
 * the payment and goes to the dashboard after 5 s, or at once with the button.
 */
export function CheckoutSuccessPage() {
  const t = useT();
  const lingua = useLingua();
  const [, navigate] = useLocation();
  const queryClient = useQueryClient();

  useEffect(() => {
    // The booking is paid now: the dashboard must not show a cached 'Paga'.
    void queryClient.invalidateQueries({ queryKey: OWN_BOOKINGS_QUERY_KEY });
    const timer = setTimeout(() => navigate('/dashboard'), CHECKOUT_SUCCESS_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [navigate, queryClient]);

  return (
    <AuthShell title={t('payment.successTitle')} description={t('payment.successDescription', { importo: money(EXTERNAL_FEE_CENTS, lingua) })}>
      <div className="grid gap-4 text-center">
        <CircleCheckIcon className="mx-auto size-14 text-primary" aria-hidden="true" />
        <p>{t('payment.successText')}</p>
        <LinkButton href="/dashboard" icon={LayoutDashboardIcon} size="lg">
          {t('payment.goToDashboard')}
        </LinkButton>
      </div>
    </AuthShell>
  );
}
