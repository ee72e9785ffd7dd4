import { useT } from './lib/i18n';
import { Suspense, useLayoutEffect } from 'react';
import { Redirect, Route, Switch, useLocation } from 'wouter';
import { FullScreenSpinner } from './components/ui/spinner';
import { LoginPage } from './features/auth/login-page';
import { decideRoute, firstScreen, isPrivacyPath, RACK_PATH } from './lib/guards';
import { mayOpenWorkshop } from '../shared/staff';
import { useCurrentUser } from './lib/session';
import {
  AdminScreen,
  BikeScreen,
  ChangePasswordScreen,
  CollegeCompletionScreen,
  CheckoutScreen,
  CheckoutSuccessScreen,
  DashboardScreen,
  LOADING,
  NotFoundScreen,
  OfficinaScreen,
  PaymentScreen,
  PrivacyScreen,
  ProfileScreen,
  RackScreen,
  RecoveryScreen,
  RegistrationScreen,
  ReportsScreen,
  SediScreen,
  SimulatedCheckoutScreen,
  StatsScreen,
  TicketScreen,
  TwoFactorLoginScreen,
} from './screens';

/** Reads the session, applies the guards (lib/guards.ts), then picks the screen. */
export function AppRoutes() {
  const [location] = useLocation();
  const { data: user, isPending } = useCurrentUser();
  const t = useT();
  // A new screen starts at its top: the browser only does this for full page loads, and a
  // long form (registration on a phone) would otherwise open the next screen half-way down.
  useLayoutEffect(() => {
    window.scrollTo(0, 0);
  }, [location]);

  // At /login the form shows at once, in the same place in the tree as once the session is
  // known (the <Switch> below): it is not mounted again, and nothing typed meanwhile is lost.
  // The privacy notice needs no session: the same element whether it is known or not.
  if (isPrivacyPath(location)) {
    return (
      <Suspense fallback={<FullScreenSpinner label={t(LOADING)} />}>
        <PrivacyScreen />
      </Suspense>
    );
  }
  // The rack's board needs no session either: its link is the credential.
  const rack = RACK_PATH.exec(location);
  if (rack) return <RackScreen token={rack[1]!} />;
  if (isPending && firstScreen(location) !== 'login') return <FullScreenSpinner label={t(LOADING)} />;

  const decision = decideRoute(location, user ?? null);
  if (decision.kind === 'redirect') return <Redirect to={decision.to} replace />;
  if (decision.kind === 'login') return <LoginPage />;

  const workshop = user ? mayOpenWorkshop(user) : false;
  // The login screen is in the first download; every other screen is in a chunk (screens.tsx).
  return (
    <Switch>
      <Route path="/login" component={LoginPage} />
      <Route path="/registrazione" component={RegistrationScreen} />
      <Route path="/recupera-password" component={RecoveryScreen} />
      <Route path="/cambio-password" component={ChangePasswordScreen} />
      <Route path="/verifica-accesso" component={TwoFactorLoginScreen} />
      <Route path="/accesso/completa" component={CollegeCompletionScreen} />
      <Route path="/dashboard" component={DashboardScreen} />
      <Route path="/admin" component={AdminScreen} />
      <Route path="/admin/statistiche" component={StatsScreen} />
      <Route path="/admin/sedi" component={SediScreen} />
      <Route path="/profilo" component={ProfileScreen} />
      <Route path="/bici/:numero" component={BikeScreen} />
      {/* The workshop (issue 48): staff who see tickets, or an admin; anyone else the unknown path's page. */}
      <Route path="/officina" component={workshop ? OfficinaScreen : NotFoundScreen} />
      <Route path="/officina/:id" component={workshop ? TicketScreen : NotFoundScreen} />
      <Route path="/doc" component={ReportsScreen} />
      <Route path="/payment/:bookingId" component={PaymentScreen} />
      <Route path="/checkout-success" component={CheckoutSuccessScreen} />
      <Route path="/checkout/:bookingId?" component={CheckoutScreen} />
      <Route path="/pagamento-simulato/:sessionId" component={SimulatedCheckoutScreen} />
      <Route component={NotFoundScreen} />
    </Switch>
  );
}
