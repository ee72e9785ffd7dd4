import { CircleAlertIcon } from 'lucide-react';
import { Button, ButtonIcon } from '../../components/ui/button';
import { useT } from '../../lib/i18n';
import { refusalTitle, type QueuedAction } from '../../offline/actions';
import { formatClock } from './dashboard-model';
import { useDismissRefusal } from './queries';

/**
 * The ride steps queued on this device that the server refused when they reached it (issue
 * 22), e.g. a pick-up of a booking released meanwhile as a no-show: each in plain Italian with
 * the server's words, until the user says they have read it. Nothing leaves the device unread.
 */
export function RefusedActions({ actions, timeZone, onDismissed }: { actions: QueuedAction[]; timeZone: string; onDismissed: () => void }) {
  const t = useT();
  const dismiss = useDismissRefusal();
  if (actions.length === 0) return null;
  return (
    <section aria-labelledby="azioni-rifiutate-title" className="grid gap-3">
      <h2 id="azioni-rifiutate-title" className="sr-only">
        {t('refusedActions.title')}
      </h2>
      {actions.map((action) => {
        const textId = `azione-${action.idAzione}`;
        const clock = formatClock(action.oraDispositivo, timeZone);
        const busy = dismiss.isPending && dismiss.variables === action.idAzione;
        return (
          <div key={action.idAzione} role="alert" className="flex flex-col gap-3 rounded-xl border border-red-300 bg-red-50 p-4 text-red-950 sm:flex-row sm:items-start">
            <CircleAlertIcon className="mt-0.5 size-5 shrink-0 text-red-700" aria-hidden="true" />
            <div id={textId} className="grid min-w-0 flex-1 gap-1">
              <p className="font-semibold wrap-anywhere">
                {refusalTitle(action, t)}: {action.messaggio}
              </p>
              <p className="text-sm">
                {t('refusedActions.bike', { numero: action.biciNumero })}
                {clock ? t(action.tipo === 'ritiro' ? 'refusedActions.markedPickUp' : 'refusedActions.markedReturn', { ora: clock }) : ''}.
              </p>
            </div>
            <Button
              variant="outline"
              size="sm"
              aria-describedby={textId}
              disabled={busy}
              onClick={() => dismiss.mutate(action.idAzione, { onSuccess: onDismissed })}
            >
              <ButtonIcon pending={busy} />
              {t('refusedActions.gotIt')}
            </Button>
          </div>
        );
      })}
    </section>
  );
}
