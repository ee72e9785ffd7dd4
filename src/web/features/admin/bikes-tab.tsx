import { PencilIcon, PlusIcon } from 'lucide-react';
import { useId, useState } from 'react';
import type { AdminBikeDto, AdminSummary } from '../../../shared/schemas/admin';
import type { BikeStato } from '../../../shared/schemas/booking';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { TableBody, TableCell, TableRow } from '../../components/ui/table';
import { useT } from '../../lib/i18n';
import { BIKE_STATI, BIKE_STATO_BADGE, formatDateTime } from './admin-model';
import { ColumnHeads, NativeSelect, ScrollTable, StatusRow } from './admin-table';
import { bikeColumns } from './bikes-panel-shell';
import { BikeLabelsButton } from './bike-labels-button';
import { FormDialog } from './form-dialog';
import { BikeTickets } from '../officina/tickets-panels';
import { EditLock, LockCell } from './lock-editor';
import { MaintenanceList, PlanMaintenance } from './maintenance';
import { RackSection } from './rack-section';
import { useAdminBikes, useCreateBike, useUpdateBike } from './queries';
import { useTimeZone } from '../../lib/public-config';
import { useSedi } from '../../lib/sedi';
import { BikeSedeField } from './bike-sede-field';
import { SedeBadge, SedeFilter, useSedeFilter } from './sede-filter';
import { useStaffView } from '../../lib/staff-view';

function EditBike({ bike }: { bike: AdminBikeDto }) {
  const t = useT();
  const [stato, setStato] = useState<BikeStato | ''>('');
  const sedi = useSedi();
  const [sedeId, setSedeId] = useState(bike.sedeId);
  const update = useUpdateBike();
  const selectId = useId();
  // Issue 48: a bike moves between sedi by the admin's hand only.
  const { isAdmin } = useStaffView();
  const mayMove = sedi.several && isAdmin;
  // Issue 47: only a change of sede is sent, and only where there are several.
  const moving = mayMove && sedeId !== bike.sedeId;

  return (
    <FormDialog
      onOpen={() => {
        setStato('');
        setSedeId(bike.sedeId);
      }}
      pending={update.isPending}
      trigger={
        <Button variant="outline" size="sm" aria-label={t('bikesTab.editBikeAria', { numero: bike.numero })}>
          <PencilIcon aria-hidden="true" />
          {t('bikesTab.edit')}
        </Button>
      }
      title={t('bikesTab.editTitle', { numero: bike.numero })}
      description={t('bikesTab.editDescription', { modello: bike.modello, stato: t(BIKE_STATO_BADGE[bike.stato].label).toLowerCase() })}
      onSubmit={() =>
        stato === '' && !moving
          ? undefined
          : update.mutateAsync({ id: bike.id, numero: bike.numero, ...(stato === '' ? {} : { stato }), ...(moving ? { sedeId, sede: sedi.nameOf(sedeId) } : {}) })
      }
      canSubmit={stato !== '' || moving}
      submitLabel={t('bikesTab.save')}
    >
      <div className="grid gap-2">
        <Label htmlFor={selectId}>{t('bikesTab.status')}</Label>
        <NativeSelect id={selectId} value={stato} onChange={(e) => setStato(e.target.value as BikeStato | '')}>
          <option value="" disabled>
            {t('bikesTab.chooseStatus')}
          </option>
          {BIKE_STATI.map((s) => (
            <option key={s} value={s}>
              {t(BIKE_STATO_BADGE[s].label)}
            </option>
          ))}
        </NativeSelect>
      </div>
      {mayMove ? (
        <BikeSedeField
          sedi={sedi.open}
          value={sedeId}
          onChange={setSedeId}
          hint={moving ? t('sediMovesTab.sedeHint', { sede: sedi.nameOf(bike.sedeId) }) : undefined}
        />
      ) : null}
      {/* Issue 48: the bike's repair tickets, open and closed, each a link to its page. */}
      <BikeTickets biciId={bike.id} />
    </FormDialog>
  );
}

function AddBike() {
  const t = useT();
  const [numero, setNumero] = useState('');
  const [modello, setModello] = useState('');
  const create = useCreateBike();
  const sedi = useSedi();
  // Issue 47: with several sedi, the bike's own; the first open one until chosen (the server's default too).
  const [chosen, setChosen] = useState<number | null>(null);
  const sedeId = chosen ?? sedi.open[0]?.id ?? null;
  const numeroId = useId();
  const modelloId = useId();

  function submit() {
    const at = sedi.several && sedeId !== null ? { sedeId } : {};
    return create.mutateAsync({ numero: numero.trim(), modello: modello.trim(), ...at }).then(() => {
      setNumero('');
      setModello('');
    });
  }

  return (
    <FormDialog
      pending={create.isPending}
      trigger={
        <Button size="sm">
          <PlusIcon aria-hidden="true" />
          {t('bikesTab.addBike')}
        </Button>
      }
      title={t('bikesTab.addBike')}
      description={t('bikesTab.addDescription')}
      onSubmit={submit}
      canSubmit={numero.trim() !== '' && modello.trim() !== ''}
      submitLabel={t('bikesTab.add')}
    >
      <div className="grid gap-2">
        <Label htmlFor={numeroId}>{t('bikesTab.number')}</Label>
        <Input id={numeroId} value={numero} onChange={(e) => setNumero(e.target.value)} maxLength={20} required />
      </div>
      <div className="grid gap-2">
        <Label htmlFor={modelloId}>{t('bikesTab.model')}</Label>
        <Input id={modelloId} value={modello} onChange={(e) => setModello(e.target.value)} maxLength={100} required />
      </div>
      {sedi.several ? <BikeSedeField sedi={sedi.open} value={sedeId} onChange={setChosen} /> : null}
    </FormDialog>
  );
}

/** Biciclette tab (spec §2): counts by state, the fleet, state changes, a new bike; planned maintenance (issue 20). */
export function BikesTab({ summary }: { summary: AdminSummary | undefined }) {
  const t = useT();
  // Issue 48: a staff member has the states, and the locks, the maintenance and the rack's link their roles carry.
  const view = useStaffView();
  const timeZone = useTimeZone();
  const [sedeId, setSedeId] = useSedeFilter();
  const bikes = useAdminBikes(sedeId);
  const rows = bikes.isError ? [] : (bikes.data ?? []);
  const columns = bikeColumns(t);
  const counts: { label: string; value: number | undefined }[] = [
    { label: t('bikesTab.countAvailable'), value: summary?.bikesByStato.disponibile },
    { label: t('bikesTab.countBooked'), value: summary?.bikesByStato.prenotata },
    { label: t('bikesTab.countMaintenance'), value: summary?.bikesByStato.manutenzione },
  ];

  return (
    <div className="grid gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <dl className="flex flex-wrap gap-x-5 gap-y-1 text-sm" hidden={!view.may('prenotazioni')}>
          {counts.map((c) => (
            <div key={c.label} className="flex gap-1.5">
              <dt className="text-muted-foreground">{c.label}:</dt>
              <dd className="font-semibold tabular-nums">{c.value ?? '—'}</dd>
            </div>
          ))}
        </dl>
        <div className="flex flex-wrap gap-2">
          <BikeLabelsButton />
          {view.isAdmin ? <AddBike /> : null}
        </div>
      </div>
      <SedeFilter value={sedeId} onChange={setSedeId} />
      <ScrollTable label={t('bikesPanelShell.bikes')} aria-busy={bikes.isFetching}>
        <ColumnHeads columns={columns} />
        <TableBody>
          {rows.length === 0 ? (
            <StatusRow
              colSpan={columns.length}
              isPending={bikes.isPending}
              isError={bikes.isError}
              empty={t('bikesPanelShell.noBikes')}
              onRetry={() => void bikes.refetch()}
            />
          ) : (
            rows.map((bike) => {
              const badge = BIKE_STATO_BADGE[bike.stato];
              return (
                <TableRow key={bike.id}>
                  <TableCell className="font-medium">
                    <span className="flex items-center gap-1 whitespace-nowrap">
                      {bike.numero}
                      <SedeBadge sedeId={bike.sedeId} />
                    </span>
                  </TableCell>
                  <TableCell>{bike.modello}</TableCell>
                  <TableCell>
                    <Badge variant={badge.tone} className={badge.className}>
                      {t(badge.label)}
                    </Badge>
                  </TableCell>
                  <TableCell>
                    <LockCell bike={bike} />
                  </TableCell>
                  <TableCell className="tabular-nums">{formatDateTime(bike.updatedAt, timeZone)}</TableCell>
                  <TableCell>
                    <div className="flex gap-2">
                      <EditBike bike={bike} />
                      {view.may('lucchetti') ? <EditLock bike={bike} /> : null}
                      {view.may('chiusure') ? <PlanMaintenance bike={bike} /> : null}
                    </div>
                  </TableCell>
                </TableRow>
              );
            })
          )}
        </TableBody>
      </ScrollTable>
      {view.may('chiusure') ? <MaintenanceList /> : null}
      {view.may('rastrelliera') ? <RackSection /> : null}
    </div>
  );
}
