import { useLayoutEffect } from 'react';
import { Redirect, Route, Switch, useLocation } from 'wouter';
import { FullScreenSpinner } from './components/ui/spinner';
import { ChangePasswordPage } from './features/auth/change-password-page';
import { LoginPage } from './features/auth/login-page';
import { RecoveryPage } from './features/auth/recovery-page';
import { RegistrationPage } from './features/auth/registration-page';
import { NotFoundPage } from './features/not-found/not-found-page';
import { decideRoute } from './lib/guards';
import { useCurrentUser } from './lib/session';
import {
  AdminScreen,
  CheckoutScreen,
  CheckoutSuccessScreen,
  DashboardScreen,
  PaymentScreen,
  ReportsScreen,
  SimulatedCheckoutScreen,
  StatsScreen,
} from './screens';

/** Reads the session, applies the guards (lib/guards.ts), then picks the screen. */
export function AppRoutes() {
  const [location] = useLocation();
  const { data: user, isPending } = useCurrentUser();
  // A new screen starts at its top: the browser only does this for full page loads, and a
  // long form (registration on a phone) would otherwise open the next screen half-way down.
  useLayoutEffect(() => {
    window.scrollTo(0, 0);
  }, [location]);

  if (isPending) return <FullScreenSpinner label="Caricamento BiciElis..." />;

  const decision = decideRoute(location, user ?? null);
  if (decision.kind === 'redirect') return <Redirect to={decision.to} replace />;
  if (decision.kind === 'login') return <LoginPage />;

  // The account screens are in the first download; every other screen is its own chunk (screens.tsx).
  return (
    <Switch>
      <Route path="/login" component={LoginPage} />
      <Route path="/registrazione" component={RegistrationPage} />
      <Route path="/recupera-password" component={RecoveryPage} />
      <Route path="/cambio-password" component={ChangePasswordPage} />
      <Route path="/dashboard" component={DashboardScreen} />
      <Route path="/admin" component={AdminScreen} />
      <Route path="/admin/statistiche" component={StatsScreen} />
      <Route path="/doc" component={ReportsScreen} />
      <Route path="/payment/:bookingId" component={PaymentScreen} />
      <Route path="/checkout-success" component={CheckoutSuccessScreen} />
      <Route path="/checkout/:bookingId?" component={CheckoutScreen} />
      <Route path="/pagamento-simulato/:sessionId" component={SimulatedCheckoutScreen} />
      <Route component={NotFoundPage} />
    </Switch>
  );
}
