import { CameraIcon, XIcon } from 'lucide-react';
import { useEffect, useMemo, useRef } from 'react';
import { TICKET_PHOTO_BYTES_MAX, TICKET_PHOTOS_MAX } from '../../shared/staff';
import { useT, type Translate } from '../lib/i18n';
import { Button } from './ui/button';

/**
 * What is wrong with a choice of photos before it is sent (issue 48): more than 3, or one over
 * 10 MB (the server says the same, and reads each type from its bytes). Null when they may go.
 */
export function photosProblem(files: readonly File[], t: Translate): string | null {
  if (files.length > TICKET_PHOTOS_MAX) return t('photoPicker.tooMany', { max: TICKET_PHOTOS_MAX });
  const big = files.find((file) => file.size > TICKET_PHOTO_BYTES_MAX);
  if (big) return t('photoPicker.tooBig', { nome: big.name, mb: TICKET_PHOTO_BYTES_MAX / (1024 * 1024) });
  return null;
}

/** The previews' addresses, revoked when the files change or the form goes. */
function usePreviews(files: readonly File[]): string[] {
  const urls = useMemo(() => files.map((file) => URL.createObjectURL(file)), [files]);
  useEffect(() => () => urls.forEach((url) => URL.revokeObjectURL(url)), [urls]);
  return urls;
}

/**
 * Up to 3 photos from the phone's camera (or its gallery), each previewed with a button that
 * removes it. A choice adds to those already there; the limits are told under the previews.
 */
export function PhotoPicker({
  id,
  files,
  onChange,
  disabled = false,
}: {
  id: string;
  files: readonly File[];
  onChange: (files: File[]) => void;
  disabled?: boolean;
}) {
  const t = useT();
  const input = useRef<HTMLInputElement>(null);
  const previews = usePreviews(files);
  const problem = photosProblem(files, t);
  const full = files.length >= TICKET_PHOTOS_MAX;
  return (
    <div className="grid gap-2">
      <input
        ref={input}
        id={id}
        type="file"
        accept="image/*"
        capture="environment"
        multiple
        className="sr-only"
        tabIndex={-1}
        aria-hidden="true"
        disabled={disabled}
        data-testid={`${id}-input`}
        onChange={(event) => {
          const chosen = [...(event.target.files ?? [])];
          event.target.value = '';
          if (chosen.length > 0) onChange([...files, ...chosen]);
        }}
      />
      <Button
        id={`${id}-add`}
        type="button"
        variant="outline"
        size="lg"
        className="min-h-12 w-full sm:w-auto sm:justify-self-start"
        disabled={disabled || full}
        aria-describedby={`${id}-hint${problem ? ` ${id}-problem` : ''}`}
        onClick={() => input.current?.click()}
      >
        <CameraIcon aria-hidden="true" />
        {t('photoPicker.add')}
      </Button>
      <p id={`${id}-hint`} className="text-sm text-muted-foreground">
        {t('photoPicker.hint', { max: TICKET_PHOTOS_MAX, mb: TICKET_PHOTO_BYTES_MAX / (1024 * 1024), count: files.length })}
      </p>
      {files.length > 0 ? (
        <ul className="flex flex-wrap gap-3" aria-label={t('photoPicker.chosen')}>
          {files.map((file, index) => (
            <li key={`${file.name}-${index}`} className="relative">
              <img src={previews[index]} alt={t('photoPicker.preview', { n: index + 1 })} className="size-24 rounded-lg border object-cover" />
              <Button
                type="button"
                variant="destructive"
                size="icon"
                className="absolute -top-2 -right-2 size-12 rounded-full sm:size-12"
                disabled={disabled}
                aria-label={t('photoPicker.remove', { n: index + 1 })}
                onClick={() => onChange(files.filter((_, i) => i !== index))}
              >
                <XIcon aria-hidden="true" />
              </Button>
            </li>
          ))}
        </ul>
      ) : null}
      {problem ? (
        <p id={`${id}-problem`} role="alert" className="text-sm font-medium text-destructive">
          {problem}
        </p>
      ) : null}
    </div>
  );
}
