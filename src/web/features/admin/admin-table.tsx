import { ChevronLeftIcon, ChevronRightIcon, RotateCwIcon, SearchIcon } from 'lucide-react';
import { useEffect, useRef, type ComponentProps, type ReactNode } from 'react';
import { Button } from '../../components/ui/button';
import { Input } from '../../components/ui/input';
import { Spinner } from '../../components/ui/spinner';
import { TableCell, TableHead, TableHeader, TableRow } from '../../components/ui/table';
import { useT } from '../../lib/i18n';
import { cn } from '../../lib/utils';
import { pageCount } from './admin-model';

/**
 * A table in a box that scrolls sideways on a phone: a labelled, focusable region, so a
 * keyboard user can scroll it too. Positioned, so that what is absolutely placed inside (an
 * `sr-only` header) scrolls with it instead of widening the page.
 */
export function ScrollTable({ label, className, ...props }: ComponentProps<'table'> & { label: string }) {
  return (
    <div
      role="region"
      aria-label={label}
      tabIndex={0}
      data-slot="table-container"
      className="relative w-full overflow-x-auto rounded-xl border bg-card shadow-sm focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
    >
      <table data-slot="table" className={cn('w-full text-sm', className)} {...props} />
    </div>
  );
}

/** The table's header row: a heading a column. */
export function ColumnHeads({ columns }: { columns: ReactNode[] }) {
  return (
    <TableHeader>
      <TableRow>
        {columns.map((column, i) => (
          <TableHead key={i}>{column}</TableHead>
        ))}
      </TableRow>
    </TableHeader>
  );
}

/** The single row shown instead of the data: loading, a load error (shown as empty, spec §8), or empty. */
export function StatusRow({
  colSpan,
  isPending,
  isError,
  empty,
  onRetry,
}: {
  colSpan: number;
  isPending: boolean;
  isError: boolean;
  empty: string;
  onRetry: () => void;
}) {
  const t = useT();
  let content: ReactNode;
  if (isPending) content = <Spinner label={t('adminTable.loading')} showLabel />;
  else
    content = (
      <div className="flex flex-wrap items-center gap-3">
        <span>{empty}</span>
        {isError ? (
          <Button variant="outline" size="sm" onClick={onRetry}>
            <RotateCwIcon aria-hidden="true" />
            {t('adminTable.retry')}
          </Button>
        ) : null}
      </div>
    );
  return (
    <TableRow className="hover:bg-transparent">
      <TableCell colSpan={colSpan} className="py-6 text-muted-foreground">
        {content}
      </TableCell>
    </TableRow>
  );
}

/**
 * A list's search field. On a page the server rendered (/admin, decision 027) a person may
 * type before React takes the page; what they typed is adopted when it does, instead of
 * being wiped by the first render of the empty search.
 */
export function SearchBox({
  label,
  value,
  onValueChange,
  ...props
}: Omit<ComponentProps<'input'>, 'value' | 'onChange'> & { label: string; value: string; onValueChange: (value: string) => void }) {
  const input = useRef<HTMLInputElement>(null);
  const adopt = useRef(onValueChange);
  useEffect(() => {
    const typed = input.current?.value ?? '';
    if (typed !== value) adopt.current(typed);
    // Once, at the first commit: later the input is React's own.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return (
    <div className="relative w-full sm:max-w-sm">
      <SearchIcon className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden="true" />
      <Input
        ref={input}
        type="search"
        aria-label={label}
        className="pl-9"
        value={value}
        onChange={(e) => onValueChange(e.target.value)}
        {...props}
      />
    </div>
  );
}

/** Precedente / Successiva and "Pagina X di Y" (the total comes from X-Total-Count). */
export function Pager({
  page,
  total,
  pageSize,
  onPage,
  label,
}: {
  page: number;
  total: number;
  pageSize: number;
  onPage: (page: number) => void;
  label: string;
}) {
  const t = useT();
  const pages = pageCount(total, pageSize);
  return (
    // On a phone the page number sits above the two buttons; from `sm` up, between them.
    <nav aria-label={label} className="grid grid-cols-2 items-center gap-2 sm:flex sm:justify-between">
      <p className="col-span-2 text-center text-sm text-muted-foreground tabular-nums sm:order-2" aria-live="polite">
        {t('adminTable.pageOf', { page: Math.min(page, pages), pages })}
        <span className="sr-only"> {t('adminTable.results', { total })}</span>
      </p>
      <Button
        variant="outline"
        size="sm"
        className="justify-self-start sm:order-1"
        onClick={() => onPage(page - 1)}
        disabled={page <= 1}
      >
        <ChevronLeftIcon aria-hidden="true" />
        {t('adminTable.previous')}
      </Button>
      <Button
        variant="outline"
        size="sm"
        className="justify-self-end sm:order-3"
        onClick={() => onPage(page + 1)}
        disabled={page >= pages}
      >
        {t('adminTable.next')}
        <ChevronRightIcon aria-hidden="true" />
      </Button>
    </nav>
  );
}

/**
 * A native select, styled like the inputs: phone pickers, keyboard and screen readers for
 * free, and no popover positioning code (Radix Select would pull it into the first page's chunk).
 */
/** The filters' select (shared with the other screens). */
export { NativeSelect } from '../../components/ui/native-select';

/** One "label: value" line of a details dialog. */
export function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid grid-cols-[8rem_1fr] gap-2 text-sm">
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="min-w-0 break-words">{children}</dd>
    </div>
  );
}
