import type { ReactNode } from 'react';
import { TableBody } from '../../components/ui/table';
import { ColumnHeads, ScrollTable, StatusRow } from './admin-table';

/** The bikes' table's columns (bikes-tab.tsx and its shell below). */
export const BIKE_COLUMNS: ReactNode[] = ['Numero', 'Modello', 'Stato', 'Lucchetto', 'Ultima modifica', <span className="sr-only">Azioni</span>];

/**
 * The `Biciclette` tab as it first shows, before its own code (a chunk of its own) is in: the
 * bikes' table, its rows loading. In the HTML of /admin as the tab's hidden panel, so that a tap
 * on the tab shows it before the page has hydrated (decision 039), and the tab's fallback while
 * its chunk loads, so that the same screen stays until the tab itself replaces it.
 */
export function BikesPanelShell() {
  return (
    <div className="grid gap-4">
      <ScrollTable label="Biciclette" aria-busy>
        <ColumnHeads columns={BIKE_COLUMNS} />
        <TableBody>
          <StatusRow colSpan={BIKE_COLUMNS.length} isPending isError={false} empty="Nessuna bicicletta" onRetry={() => undefined} />
        </TableBody>
      </ScrollTable>
    </div>
  );
}
