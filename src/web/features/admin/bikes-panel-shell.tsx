import type { ReactNode } from 'react';
import { TableBody } from '../../components/ui/table';
import { useT, type Translate } from '../../lib/i18n';
import { ColumnHeads, ScrollTable, StatusRow } from './admin-table';

/** The bikes' table's columns (bikes-tab.tsx and its shell below), in `t`'s language. */
export const bikeColumns = (t: Translate): ReactNode[] => [
  t('bikesPanelShell.number'),
  t('bikesPanelShell.model'),
  t('bikesPanelShell.status'),
  t('bikesPanelShell.lock'),
  t('bikesPanelShell.lastChange'),
  <span className="sr-only">{t('bikesPanelShell.actions')}</span>,
];

/**
 * The `Biciclette` tab as it first shows, before its own code (a chunk of its own) is in: the
 * bikes' table, its rows loading. In the HTML of /admin as the tab's hidden panel, so that a tap
 * on the tab shows it before the page has hydrated (decision 039), and the tab's fallback while
 * its chunk loads, so that the same screen stays until the tab itself replaces it.
 */
export function BikesPanelShell() {
  const t = useT();
  const columns = bikeColumns(t);
  return (
    <div className="grid gap-4">
      <ScrollTable label={t('bikesPanelShell.bikes')} aria-busy>
        <ColumnHeads columns={columns} />
        <TableBody>
          <StatusRow colSpan={columns.length} isPending isError={false} empty={t('bikesPanelShell.noBikes')} onRetry={() => undefined} />
        </TableBody>
      </ScrollTable>
    </div>
  );
}
