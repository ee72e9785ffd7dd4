import { QrCodeIcon } from 'lucide-react';
import { useState } from 'react';
import { Button, ButtonIcon } from '../../components/ui/button';
import { toast } from '../../components/ui/use-toast';
import { saveResponseAsFile } from '../../lib/download';
import { t as tNow, useT } from '../../lib/i18n';

/** The labels' PDF (issue 34): one label a bike with its number and the QR code of its page. */
export const BIKE_LABELS_URL = '/api/admin/biciclette/etichette.pdf';

/** `Etichette QR`: downloads the labels to print and stick on the bikes, under the server's file name. */
export function BikeLabelsButton() {
  const t = useT();
  const [pending, setPending] = useState(false);
  const onDownload = async () => {
    setPending(true);
    try {
      const res = await fetch(BIKE_LABELS_URL, { credentials: 'include' });
      if (!res.ok) throw new Error(`${res.status}`);
      const name = await saveResponseAsFile(res, 'etichette-bici.pdf');
      toast({ title: tNow('bikeLabelsButton.downloaded'), description: name });
    } catch {
      toast({ title: tNow('bikeLabelsButton.downloadError'), description: tNow('bikeLabelsButton.downloadFailed'), variant: 'destructive' });
    } finally {
      setPending(false);
    }
  };
  return (
    <Button variant="outline" size="sm" onClick={() => void onDownload()} disabled={pending} aria-busy={pending}>
      <ButtonIcon pending={pending} icon={<QrCodeIcon aria-hidden="true" />} />
      {t('bikeLabelsButton.labels')}
    </Button>
  );
}
