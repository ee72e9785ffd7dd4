import { RotateCwIcon } from 'lucide-react';
import { useT } from '../lib/i18n';
import { Button } from './ui/button';

/** A read that failed: what could not be loaded, said as an alert, and `Riprova`. */
export function LoadFailed({ message, onRetry, className }: { message: string; onRetry: () => void; className: string }) {
  const t = useT();
  return (
    <div className={className}>
      <p role="alert" className="text-destructive">
        {message}
      </p>
      <Button variant="outline" size="sm" onClick={onRetry}>
        <RotateCwIcon aria-hidden="true" />
        {t('components.retry')}
      </Button>
    </div>
  );
}
