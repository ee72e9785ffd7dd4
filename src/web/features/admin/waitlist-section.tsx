import { HourglassIcon } from 'lucide-react';
import { Badge } from '../../components/ui/badge';
import { Spinner } from '../../components/ui/spinner';
import { useAdminWaitlist } from './queries';
import { LoadFailed } from '../../components/load-failed';
import { useT } from '../../lib/i18n';
import { SedeFilter, useSedeFilter } from './sede-filter';

/**
 * `Liste d'attesa di oggi` on /admin (issue 21): the windows of today not started yet, how
 * many wait for each, and the offers open now (a bike held for the first in line).
 */
export function WaitlistSection() {
  const t = useT();
  const waiting = (n: number) => t('waitlistSection.waiting', { count: n });
  const offers = (n: number) => t('waitlistSection.offers', { count: n });
  const [sedeId, setSedeId] = useSedeFilter();
  const lines = useAdminWaitlist(sedeId);
  let body;
  if (lines.isPending) {
    body = <Spinner label={t('waitlistSection.loading')} showLabel className="py-4" />;
  } else if (lines.isError || !lines.data) {
    body = (
      <LoadFailed className="flex flex-col items-start gap-3 rounded-xl border border-destructive/40 bg-card p-4" message={t('waitlistSection.loadFailed')} onRetry={() => void lines.refetch()} />
    );
  } else if (lines.data.finestre.length === 0) {
    body = <p className="rounded-xl border border-dashed bg-card px-4 py-6 text-center text-muted-foreground">{t('waitlistSection.none')}</p>;
  } else {
    const { inAttesa, offerteAperte, finestre } = lines.data;
    body = (
      <div className="grid gap-3 rounded-xl border bg-card p-4 shadow-sm">
        <p className="flex flex-wrap gap-2">
          <Badge variant="info">{waiting(inAttesa)}</Badge>
          <Badge variant={offerteAperte > 0 ? 'warning' : 'muted'}>{offers(offerteAperte)}</Badge>
        </p>
        <ul className="grid gap-1 text-sm">
          {finestre.map((f) => (
            <li key={`${f.orarioInizio}-${f.orarioFine}`} className="tabular-nums">
              <span className="font-medium">
                {f.orarioInizio}–{f.orarioFine}
              </span>{' '}
              · {waiting(f.inAttesa)}
              {f.offerteAperte > 0 ? ` · ${offers(f.offerteAperte)}` : null}
            </li>
          ))}
        </ul>
      </div>
    );
  }
  return (
    <section aria-labelledby="attese-oggi-title" className="grid gap-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="attese-oggi-title" className="flex items-center gap-2 text-xl font-semibold">
          <HourglassIcon className="size-5 text-muted-foreground" aria-hidden="true" />
          {t('waitlistSection.title')}
        </h2>
        <SedeFilter value={sedeId} onChange={setSedeId} />
      </div>
      {body}
    </section>
  );
}
