import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { useT } from '../lib/i18n';
import { cn } from '../lib/utils';
import { Spinner } from './ui/spinner';

export type LoadState = 'loading' | 'error' | 'ready';

export interface SummaryCard {
  label: string;
  icon: LucideIcon;
  value: ReactNode;
  /** Whether what the value comes from is loaded: a spinner while not, a dash if it failed. */
  state: LoadState;
  /** A word rather than a number (`Residente`): a size smaller on a phone. */
  text?: boolean;
}

function CardValue({ value, state }: { value: ReactNode; state: LoadState }) {
  const t = useT();
  if (state === 'loading') return <Spinner label={t('ui.loading')} />;
  if (state === 'error') {
    return (
      <>
        <span aria-hidden="true">—</span>
        <span className="sr-only">{t('components.notAvailable')}</span>
      </>
    );
  }
  return <>{value}</>;
}

/** A page's `Riepilogo` (the dashboard's and /admin's): cards of a label, an icon and a figure. */
export function SummaryCards({ id, cards, className }: { id: string; cards: SummaryCard[]; className: string }) {
  const t = useT();
  return (
    <section aria-labelledby={id}>
      <h2 id={id} className="sr-only">
        {t('components.summary')}
      </h2>
      <dl className={cn('grid grid-cols-2 gap-3 sm:gap-4', className)}>
        {cards.map(({ label, icon: Icon, value, state, text }) => (
          <div key={label} className="flex flex-col gap-2 rounded-xl border bg-card p-4 shadow-sm">
            <dt className="flex items-start justify-between gap-2 text-sm font-medium text-muted-foreground">
              {label}
              <Icon className="size-5 shrink-0 text-primary" aria-hidden="true" />
            </dt>
            <dd className={cn('font-bold tabular-nums', text ? 'text-xl sm:text-2xl' : 'text-2xl')}>
              <CardValue value={value} state={state} />
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
