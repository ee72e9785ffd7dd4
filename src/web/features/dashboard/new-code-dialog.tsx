import { Button } from '../../components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../../components/ui/dialog';

/** After the return on a combination lock (issue 34): the code to close the lock with, large. */
export function NewCodeDialog({ code, onClose }: { code: string; onClose: () => void }) {
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Bicicletta riconsegnata</DialogTitle>
          <DialogDescription>Prima di andare, cambia il codice del lucchetto: chi la prende dopo di te riceverà questo.</DialogDescription>
        </DialogHeader>
        <p className="rounded-lg border-2 border-foreground p-4 text-lg font-semibold">
          Chiudi il lucchetto con il nuovo codice{' '}
          <span className="font-mono text-4xl font-bold tracking-[0.2em] tabular-nums">{code}</span>
        </p>
        <DialogFooter>
          <Button type="button" onClick={onClose}>
            Fatto
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
