import { useQuery } from '@tanstack/react-query';
import { BikeIcon, CalendarPlusIcon, CircleAlertIcon, HomeIcon, RotateCwIcon } from 'lucide-react';
import { lazy, Suspense, useRef } from 'react';
import type { RouteComponentProps } from 'wouter';
import type { SessionUser } from '../../../shared/api-types';
import type { BikePageDto } from '../../../shared/schemas/bike-page';
import { LinkButton } from '../../components/link-button';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card, CardContent } from '../../components/ui/card';
import { FullScreenSpinner, Spinner } from '../../components/ui/spinner';
import { ApiError } from '../../lib/api';
import { useT } from '../../lib/i18n';
import { useTimeZone } from '../../lib/public-config';
import { useCurrentUser } from '../../lib/session';
import { SubpageHeader } from '../../components/subpage-header';
import { BIKES_QUERY_KEY } from '../../lib/query-keys';
import { ReportProblem } from './report-problem';
import { BIKE_NOW_BADGE, bikeNowLines, bookThisBikeHref, canOfferBooking } from './bike-model';

/**
 * The dashboard's own booking card and its actions, from the dashboard's chunk (a static import
 * would split the card out of that chunk, and the dashboard's first download would grow).
 */
const HeldBooking = lazy(() => import('../dashboard/dashboard-page').then((m) => ({ default: m.HeldBooking })));

/** While the page is open the bike's state moves with the clock and with others' bookings: read again every 30 s. */
const REFRESH_MS = 30_000;

/**
 * GET /api/biciclette/numero/:numero. Under the bikes' key, so that a ride step or a booking
 * (which refresh every bike list, dashboard/queries.ts) refreshes this page too. A page the server
 * rendered (decision 068) brings the answer under this key (boot/entry-server.tsx).
 */
export const bikePageQueryKey = (numero: string) => [...BIKES_QUERY_KEY, 'numero', encodeURIComponent(numero)] as const;

function useBikePage(numero: string) {
  return useQuery<BikePageDto>({
    queryKey: bikePageQueryKey(numero),
    refetchInterval: REFRESH_MS,
    retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 2,
  });
}

/**
 * /bici/:numero (issue 34): the page the QR code on a bike opens. The holder of the bike's
 * current booking gets the booking's card with its steps (`Ritirata`, `Riconsegnata`: the
 * dashboard's own card and actions); anyone else the bike's state now, its next free time today,
 * and `Prenota questa bici`. The route guard guarantees a logged-in user.
 */
export function BikePage({ params }: RouteComponentProps<{ numero: string }>) {
  const t = useT();
  const { data: user } = useCurrentUser();
  // Only while logging out: the session is gone before the address changes.
  if (!user) return <FullScreenSpinner label={t('app.loadingBike')} />;
  return <Bike numero={params.numero} user={user} />;
}

const isNotFound = (error: unknown) => error instanceof ApiError && (error.status === 404 || error.status === 400);

function Bike({ numero, user }: { numero: string; user: SessionUser }) {
  const t = useT();
  const page = useBikePage(numero);
  const timeZone = useTimeZone();
  const headingRef = useRef<HTMLHeadingElement>(null);

  let body;
  if (page.isPending) {
    body = <Spinner label={t('app.loadingBike')} showLabel className="py-8" />;
  } else if (page.isError && isNotFound(page.error)) {
    body = <BikeNotFound />;
  } else if (!page.data) {
    // What was last read stays on screen when a new read fails; with nothing read, the failure and `Riprova`.
    body = (
      <div className="flex flex-col items-start gap-3 rounded-xl border border-destructive/40 bg-card p-4">
        <p role="alert" className="text-destructive">
          {t('bikePage.loadFailed')}
        </p>
        <Button variant="outline" size="sm" onClick={() => void page.refetch()}>
          <RotateCwIcon aria-hidden="true" />
          {t('bikePage.retry')}
        </Button>
      </div>
    );
  } else if (page.data.prenotazioneCorrente) {
    body = (
      <section aria-labelledby="bici-prenotazione" className="grid gap-3">
        <h2 id="bici-prenotazione" ref={headingRef} tabIndex={-1} className="text-xl font-semibold">
          {t('bikePage.yourBooking')}
        </h2>
        <Suspense fallback={<Spinner label={t('bikePage.loadingBooking')} showLabel className="py-6" />}>
          <HeldBooking booking={page.data.prenotazioneCorrente} user={user} onChanged={() => headingRef.current?.focus()} />
        </Suspense>
      </section>
    );
  } else {
    body = <BikeNow bike={page.data} timeZone={timeZone} />;
  }

  return (
    <div className="min-h-dvh pb-12">
      <SubpageHeader title={t('bikePage.title', { numero: page.data?.numero ?? numero })} description={t('bikePage.description')} width="max-w-3xl" />
      <main className="mx-auto grid max-w-3xl gap-6 px-4 pt-6 sm:px-6" aria-busy={page.isFetching}>
        {body}
        {page.data ? <ReportProblem biciId={page.data.biciId} numero={page.data.numero} /> : null}
      </main>
    </div>
  );
}

/** The bike's state now and its next free time today, for anyone but the holder. */
function BikeNow({ bike, timeZone }: { bike: BikePageDto; timeZone: string }) {
  const t = useT();
  const badge = BIKE_NOW_BADGE[bike.stato];
  return (
    <section aria-labelledby="bici-stato" className="grid gap-4 rounded-xl border bg-card p-4 shadow-sm sm:p-6">
      <div className="flex flex-wrap items-center gap-3">
        <span className="flex size-12 items-center justify-center rounded-lg bg-primary text-primary-foreground">
          <BikeIcon className="size-6" aria-hidden="true" />
        </span>
        <h2 id="bici-stato" className="text-xl font-semibold">
          {t('bikePage.now')}
        </h2>
        <Badge variant={badge.tone} className="px-3 py-1 text-base">
          {t(badge.label)}
        </Badge>
      </div>
      <ul className="grid gap-1 text-lg">
        {bikeNowLines(bike, timeZone, t).map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
      {canOfferBooking(bike) ? (
        <LinkButton href={bookThisBikeHref(bike.numero)} icon={CalendarPlusIcon} size="lg" className="w-full sm:w-auto sm:justify-self-start">
          {t('bikePage.bookThis')}
        </LinkButton>
      ) : null}
    </section>
  );
}

function BikeNotFound() {
  const t = useT();
  return (
    <Card>
      <CardContent className="flex flex-col items-center gap-4 text-center">
        <CircleAlertIcon className="size-12 text-destructive" aria-hidden="true" />
        <h2 className="text-xl font-semibold">{t('bikePage.notFound')}</h2>
        <p className="text-muted-foreground">{t('bikePage.notFoundText')}</p>
        <LinkButton href="/dashboard" icon={HomeIcon}>
          {t('bikePage.backToDashboard')}
        </LinkButton>
      </CardContent>
    </Card>
  );
}
