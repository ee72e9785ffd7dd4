import { BellRingIcon, CalendarCheckIcon, HourglassIcon, LogOutIcon, TriangleAlertIcon, XIcon } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { WaitDto } from '../../../shared/schemas/waitlist';
import { Badge } from '../../components/ui/badge';
import { Button, ButtonIcon } from '../../components/ui/button';
import { useRenderTime } from '../../lib/render-clock';
import { formatClock } from '../../lib/booking-format';
import { useLingua, useT } from '../../lib/i18n';
import { useAcceptOffer, useDeclineOffer, useLeaveWait, WAITS_QUERY_KEY } from './queries';
import { BLOCKED_TEXT, countdownText, offerSentence, placeText, waitWindowText } from './waitlist-model';

/**
 * The waitlist on the dashboard (issue 21): the offers, first on the page, each with the bike
 * held, a countdown, `Prenota` and `Rinuncia`; then `In lista d'attesa`, each window with its
 * place in line and `Esci dalla lista`. Its own chunk: most users have no waits.
 */

/**
 * The time left until `until` (ms), every second; when it runs out, the waits are read again.
 * A server-rendered page hydrates with the server's instant (lib/render-clock.ts), so the
 * countdown shows what the server wrote until the render right after.
 */
function useTimeLeft(until: string): number {
  const queryClient = useQueryClient();
  const target = new Date(until).getTime();
  const renderTime = useRenderTime();
  const [tick, setTick] = useState<number | null>(null);
  const refetched = useRef(false);
  useEffect(() => {
    const timer = setInterval(() => setTick(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  const left = target - (tick ?? renderTime);
  useEffect(() => {
    if (left <= 0 && !refetched.current) {
      refetched.current = true;
      void queryClient.invalidateQueries({ queryKey: WAITS_QUERY_KEY });
    }
  }, [left, queryClient]);
  return left;
}

function OfferCard({ wait, timeZone }: { wait: WaitDto; timeZone: string }) {
  const t = useT();
  const offer = wait.offerta!;
  const left = useTimeLeft(offer.scadeAt);
  const accept = useAcceptOffer();
  const decline = useDeclineOffer();
  const busy = accept.isPending || decline.isPending;
  const headingId = `offerta-${wait.id}-title`;
  const until = formatClock(offer.scadeAt, timeZone);
  return (
    <section
      aria-labelledby={headingId}
      aria-busy={busy}
      className="grid gap-3 rounded-xl border-2 border-primary bg-brand-50 p-4 shadow-sm sm:p-5"
    >
      <div className="flex items-start gap-3">
        <BellRingIcon className="mt-0.5 size-6 shrink-0 text-primary" aria-hidden="true" />
        <div className="grid min-w-0 gap-1">
          <h2 id={headingId} className="text-lg font-semibold">
            {offerSentence(wait, t)}
          </h2>
          <p className="wrap-anywhere">
            {t('waitlist.bike', { numero: offer.biciNumero, modello: offer.biciModello })}
            {wait.destinazione ? <span className="text-muted-foreground">{t('waitlist.for', { destinazione: wait.destinazione })}</span> : null}
          </p>
          <p className="text-sm">
            <span aria-hidden="true" className="font-semibold tabular-nums">
              {t('waitlist.heldFor', { tempo: countdownText(left) })}
            </span>
            <span className="sr-only">{t('waitlist.heldUntil', { ora: until ?? '' })}</span>
          </p>
        </div>
      </div>
      {wait.bloccataDaPrenotazione ? (
        <p className="flex items-start gap-2 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950">
          <TriangleAlertIcon className="mt-0.5 size-4 shrink-0 text-amber-700" aria-hidden="true" />
          {t(BLOCKED_TEXT)}
        </p>
      ) : null}
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="outline" disabled={busy} onClick={() => decline.mutate(wait.id)}>
          <ButtonIcon pending={decline.isPending} icon={<XIcon aria-hidden="true" />} />
          {t('waitlist.decline')}
        </Button>
        {wait.bloccataDaPrenotazione ? null : (
          <Button disabled={busy || left <= 0} onClick={() => accept.mutate(wait.id)}>
            <ButtonIcon pending={accept.isPending} icon={<CalendarCheckIcon aria-hidden="true" />} />
            {t('waitlist.book')}
          </Button>
        )}
      </div>
    </section>
  );
}

/** The offers, each its own card (first on the dashboard). */
export function OfferCards({ offers, timeZone }: { offers: WaitDto[]; timeZone: string }) {
  return (
    <div className="grid gap-3">
      {offers.map((w) => (
        <OfferCard key={w.id} wait={w} timeZone={timeZone} />
      ))}
    </div>
  );
}

function WaitingItem({ wait }: { wait: WaitDto }) {
  const t = useT();
  const lingua = useLingua();
  const leave = useLeaveWait();
  const when = waitWindowText(wait, lingua);
  return (
    <li className="flex flex-col gap-3 rounded-xl border bg-card p-4 shadow-sm sm:flex-row sm:items-center sm:justify-between">
      <div className="grid min-w-0 gap-1">
        <div className="flex flex-wrap items-center gap-2">
          <h3 className="min-w-0 font-semibold first-letter:uppercase">{when}</h3>
          <Badge variant="info">{placeText(wait.posizione, t)}</Badge>
        </div>
        {wait.destinazione ? <p className="text-sm text-muted-foreground wrap-anywhere">{t('waitlist.destination', { destinazione: wait.destinazione })}</p> : null}
        {wait.bloccataDaPrenotazione ? <p className="text-sm text-amber-900">{t(BLOCKED_TEXT)}</p> : null}
      </div>
      <Button variant="outline" size="sm" disabled={leave.isPending} aria-label={t('waitlist.leaveLabel', { quando: when })} onClick={() => leave.mutate(wait.id)}>
        <ButtonIcon pending={leave.isPending} icon={<LogOutIcon aria-hidden="true" />} />
        {t('waitlist.leave')}
      </Button>
    </li>
  );
}

/** `In lista d'attesa`: the windows the user waits for without an offer yet. */
export function WaitingList({ waiting, focusRequest = 0 }: { waiting: WaitDto[]; focusRequest?: number }) {
  const t = useT();
  const headingRef = useRef<HTMLHeadingElement>(null);
  // Each request (the user just joined from the form) moves the focus here once the list shows.
  useEffect(() => {
    if (focusRequest > 0) headingRef.current?.focus();
  }, [focusRequest]);
  return (
    <section aria-labelledby="lista-attesa-title" className="grid gap-3">
      <h2 id="lista-attesa-title" ref={headingRef} tabIndex={-1} className="flex items-center gap-2 text-xl font-semibold outline-none">
        <HourglassIcon className="size-5 text-muted-foreground" aria-hidden="true" />
        {t('waitlist.title')}
      </h2>
      <p className="text-sm text-muted-foreground">
        {t('waitlist.intro')}
      </p>
      <ul className="grid gap-3">
        {waiting.map((w) => (
          <WaitingItem key={w.id} wait={w} />
        ))}
      </ul>
    </section>
  );
}
