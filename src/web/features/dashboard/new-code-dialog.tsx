import { Button } from '../../components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../../components/ui/dialog';
import { useT } from '../../lib/i18n';

/** After the return on a combination lock (issue 34): the code to close the lock with, large. */
export function NewCodeDialog({ code, onClose }: { code: string; onClose: () => void }) {
  const t = useT();
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{t('newCodeDialog.title')}</DialogTitle>
          <DialogDescription>{t('newCodeDialog.description')}</DialogDescription>
        </DialogHeader>
        <p className="rounded-lg border-2 border-foreground p-4 text-lg font-semibold">
          {t('newCodeDialog.setCode')}{' '}
          <span className="font-mono text-4xl font-bold tracking-[0.2em] tabular-nums">{code}</span>
        </p>
        <DialogFooter>
          <Button type="button" onClick={onClose}>
            {t('newCodeDialog.done')}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
