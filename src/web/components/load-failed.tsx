import { RotateCwIcon } from 'lucide-react';
import { Button } from './ui/button';

/** A read that failed: what could not be loaded, said as an alert, and `Riprova`. */
export function LoadFailed({ message, onRetry, className }: { message: string; onRetry: () => void; className: string }) {
  return (
    <div className={className}>
      <p role="alert" className="text-destructive">
        {message}
      </p>
      <Button variant="outline" size="sm" onClick={onRetry}>
        <RotateCwIcon aria-hidden="true" />
        Riprova
      </Button>
    </div>
  );
}
