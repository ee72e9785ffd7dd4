import 'fake-indexeddb/auto';
import { QueryClient } from '@tanstack/react-query';
import { beforeEach, describe, expect, it } from 'vitest';
import { deviceDb } from './db';
import { forgetDeviceUser } from './device-user';
import { createPersistence } from './persist';

const BOOKINGS = ['/api/prenotazioni', 'user'] as const;
const CONFIG = ['/api/config'] as const;
const KEPT = [BOOKINGS, CONFIG];
const bookings = [{ id: 11, biciNumero: '12', stato: 'attiva' }];

beforeEach(async () => {
  await forgetDeviceUser();
});

describe("the user's data kept for offline use", () => {
  it('puts back what was read, with the time it was read, for the same user only', async () => {
    const online = new QueryClient();
    online.setQueryData(BOOKINGS, bookings, { updatedAt: Date.parse('2026-05-04T08:42:00.000Z') });
    online.setQueryData(CONFIG, { timeZone: 'Europe/Rome' });
    online.setQueryData(['/api/admin/utenti'], [{ id: 1 }]);
    await createPersistence(online, 7, KEPT).save();

    const offline = new QueryClient();
    expect(await createPersistence(offline, 7, KEPT).restore()).toBe(true);
    expect(offline.getQueryData(BOOKINGS)).toEqual(bookings);
    expect(offline.getQueryState(BOOKINGS)?.dataUpdatedAt).toBe(Date.parse('2026-05-04T08:42:00.000Z'));
    expect(offline.getQueryData(CONFIG)).toEqual({ timeZone: 'Europe/Rome' });
    // Only the queries the screen named.
    expect(offline.getQueryData(['/api/admin/utenti'])).toBeUndefined();
  });

  it('never shows one user’s data to another: their restore discards it', async () => {
    const ada = new QueryClient();
    ada.setQueryData(BOOKINGS, bookings);
    await createPersistence(ada, 7, KEPT).save();

    const bruno = new QueryClient();
    expect(await createPersistence(bruno, 8, KEPT).restore()).toBe(false);
    expect(bruno.getQueryData(BOOKINGS)).toBeUndefined();
    expect(await (await deviceDb()).get('dati', 'cache')).toBeUndefined();
    expect(await createPersistence(new QueryClient(), 7, KEPT).restore()).toBe(false);
  });

  it('does not overwrite newer answers already on screen', async () => {
    const before = new QueryClient();
    before.setQueryData(BOOKINGS, bookings, { updatedAt: 1_000 });
    await createPersistence(before, 7, KEPT).save();
    const now = new QueryClient();
    now.setQueryData(BOOKINGS, [], { updatedAt: 2_000 });
    await createPersistence(now, 7, KEPT).restore();
    expect(now.getQueryData(BOOKINGS)).toEqual([]);
  });

  it('writes nothing once stopped (logout), and nothing stays after the user is forgotten', async () => {
    const client = new QueryClient();
    client.setQueryData(BOOKINGS, bookings);
    const persistence = createPersistence(client, 7, KEPT);
    persistence.stop();
    await persistence.save();
    expect(await (await deviceDb()).get('dati', 'cache')).toBeUndefined();

    const other = createPersistence(client, 7, KEPT);
    await other.save();
    expect(await (await deviceDb()).get('dati', 'cache')).toBeDefined();
    await forgetDeviceUser();
    expect(await (await deviceDb()).get('dati', 'cache')).toBeUndefined();
  });
});
