import { SendIcon } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { TICKET_NOTE_MAX } from '../../../shared/staff';
import { FormField } from '../../components/form-field';
import { PhotoPicker, photosProblem } from '../../components/photo-picker';
import { Button, ButtonIcon } from '../../components/ui/button';
import { Input } from '../../components/ui/input';
import { Textarea } from '../../components/ui/textarea';
import { useT } from '../../lib/i18n';
import { useAddNote } from './queries';
import { parseMinutes } from './ticket-model';

type Errors = Partial<Record<'testo' | 'minuti' | 'foto', string>>;

/**
 * A note on a ticket (issue 48): what was done, the minutes it took, up to 3 photos. On a refusal
 * (a toast in the person's language) what was typed and chosen stays.
 */
export function NoteForm({ ticketId }: { ticketId: number }) {
  const t = useT();
  const ids = useId();
  const id = (field: string) => `${ids}-${field}`;
  const [testo, setTesto] = useState('');
  const [minuti, setMinuti] = useState('');
  const [foto, setFoto] = useState<File[]>([]);
  const [errors, setErrors] = useState<Errors>({});
  const add = useAddNote(ticketId);
  const pending = add.isPending;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    const found: Errors = {};
    const length = testo.trim().length;
    if ((length === 0 && foto.length === 0) || length > TICKET_NOTE_MAX) found.testo = t('tickets.noteText', { max: TICKET_NOTE_MAX });
    const minutes = parseMinutes(minuti);
    if (minutes === null) found.minuti = t('tickets.minutesInvalid');
    const photos = photosProblem(foto, t);
    if (photos) found.foto = photos;
    setErrors(found);
    const first = (['testo', 'minuti', 'foto'] as const).find((field) => found[field]);
    if (first) {
      document.getElementById(id(first === 'foto' ? 'foto-add' : first))?.focus();
      return;
    }
    add.mutate(
      { testo, ...(minutes === undefined || minutes === null ? {} : { minuti: minutes }), foto },
      {
        onSuccess: () => {
          setTesto('');
          setMinuti('');
          setFoto([]);
        },
      },
    );
  }

  return (
    <form noValidate onSubmit={submit} aria-busy={pending} aria-labelledby={id('title')} className="grid gap-4 rounded-xl border bg-card p-4 shadow-sm">
      <h2 id={id('title')} className="text-lg font-semibold">
        {t('tickets.addNote')}
      </h2>
      <FormField id={id('testo')} label={t('tickets.noteLabel')} error={errors.testo}>
        {(control) => (
          <Textarea
            {...control}
            rows={3}
            maxLength={TICKET_NOTE_MAX}
            value={testo}
            disabled={pending}
            onChange={(e) => {
              setTesto(e.target.value);
              setErrors(({ testo: _gone, ...rest }) => rest);
            }}
          />
        )}
      </FormField>
      <FormField id={id('minuti')} label={t('tickets.minutesLabel')} hint={t('tickets.minutesHint')} error={errors.minuti}>
        {(control) => (
          <Input
            {...control}
            inputMode="numeric"
            className="h-12 max-w-40 text-base"
            value={minuti}
            disabled={pending}
            onChange={(e) => {
              setMinuti(e.target.value);
              setErrors(({ minuti: _gone, ...rest }) => rest);
            }}
          />
        )}
      </FormField>
      <fieldset className="grid gap-2">
        <legend className="mb-2 text-sm font-medium">{t('tickets.notePhotos')}</legend>
        <PhotoPicker id={id('foto')} files={foto} disabled={pending} onChange={setFoto} />
      </fieldset>
      <Button type="submit" size="lg" className="min-h-14 w-full text-base sm:w-auto sm:justify-self-start" disabled={pending}>
        <ButtonIcon pending={pending} icon={<SendIcon aria-hidden="true" />} />
        {t('tickets.saveNote')}
      </Button>
    </form>
  );
}
