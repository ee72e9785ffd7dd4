import { QrCodeIcon } from 'lucide-react';
import { useId, useState } from 'react';
import { Button, ButtonIcon } from '../../components/ui/button';
import { Label } from '../../components/ui/label';
import { toast } from '../../components/ui/use-toast';
import { saveResponseAsFile } from '../../lib/download';
import { t as tNow, useT } from '../../lib/i18n';
import { useSedi } from '../../lib/sedi';
import { NativeSelect } from './admin-table';

/** The labels' PDF (issue 34): one label a bike with its number and the QR code of its page. */
export const BIKE_LABELS_URL = '/api/admin/biciclette/etichette.pdf';

/**
 * `Etichette QR`: downloads the labels to print and stick on the bikes, under the server's file
 * name. With several sedi (issue 47), a choice before it: every bike, or one sede's.
 */
export function BikeLabelsButton() {
  const t = useT();
  const sedi = useSedi();
  const selectId = useId();
  const [sede, setSede] = useState('');
  const [pending, setPending] = useState(false);
  const onDownload = async () => {
    setPending(true);
    try {
      const url = sedi.several && sede !== '' ? `${BIKE_LABELS_URL}?sedeId=${sede}` : BIKE_LABELS_URL;
      const res = await fetch(url, { credentials: 'include' });
      if (!res.ok) throw new Error(`${res.status}`);
      const name = await saveResponseAsFile(res, 'etichette-bici.pdf');
      toast({ title: tNow('bikeLabelsButton.downloaded'), description: name });
    } catch {
      toast({ title: tNow('bikeLabelsButton.downloadError'), description: tNow('bikeLabelsButton.downloadFailed'), variant: 'destructive' });
    } finally {
      setPending(false);
    }
  };
  const button = (
    <Button variant="outline" size="sm" onClick={() => void onDownload()} disabled={pending} aria-busy={pending}>
      <ButtonIcon pending={pending} icon={<QrCodeIcon aria-hidden="true" />} />
      {t('bikeLabelsButton.labels')}
    </Button>
  );
  if (!sedi.several) return button;
  return (
    <div className="flex flex-wrap items-center gap-2">
      <Label htmlFor={selectId} className="sr-only">
        {t('sediBoards.labelsOf')}
      </Label>
      <NativeSelect id={selectId} value={sede} onChange={(e) => setSede(e.target.value)} className="min-w-40">
        <option value="">{t('sediBoards.allSedi')}</option>
        {sedi.open.map((s) => (
          <option key={s.id} value={s.id}>
            {s.nome}
          </option>
        ))}
      </NativeSelect>
      {button}
    </div>
  );
}
