import 'fake-indexeddb/auto';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { tFor } from '../../shared/i18n/all';
import { setSharedTranslator } from '../../shared/i18n/current';
import { newRideAction, type QueuedAction, type RideActionInput } from './actions';
import { forgetDevice } from './device-data';
import { readDeviceUser, saveDeviceUser } from './device-user';
import { clearActions, dismissAction, dropActionsOfOthers, enqueue, flushQueue, listActions, onQueueChange } from './queue';

const ADA = 7;
const user = {
  id: ADA,
  nome: 'Ada',
  cognome: 'Rossi',
  email: 'ada@example.it',
  ruolo: 'user' as const,
  isResidente: true,
  siglaResidente: 'ELIS001',
  sigla: 'ELIS001',
  attiva: true,
  createdAt: '2026-01-01T00:00:00.000Z',
  lingua: 'it' as const,
  sedeId: 1,
  incarichi: [],
};

function action(input: Partial<RideActionInput> = {}, at = new Date('2026-05-04T08:42:10.000Z')): QueuedAction {
  return newRideAction({ tipo: 'ritiro', prenotazioneId: 11, userId: ADA, biciNumero: '12', ...input }, at);
}

/**
 * A server that applies each `idAzione` once, as the real one does (issue 22): a replay of an
 * id already applied answers 200 again and changes nothing. `refuse` answers a booking with a
 * 409 and the server's message.
 */
function fakeServer(options: { refuse?: Record<number, string> } = {}) {
  const applied = new Map<string, { url: string; body: Record<string, unknown> }>();
  const requests: { url: string; body: Record<string, unknown> }[] = [];
  const send = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    const body = JSON.parse(String(init?.body)) as Record<string, unknown>;
    requests.push({ url, body });
    const id = Number(/prenotazioni\/(\d+)\//.exec(url)?.[1]);
    const refusal = options.refuse?.[id];
    if (refusal) return Response.json({ message: refusal, code: 'CONFLICT' }, { status: 409 });
    if (!applied.has(String(body.idAzione))) applied.set(String(body.idAzione), { url, body });
    return Response.json({ id, stato: 'attiva', fase: url.endsWith('/ritiro') ? 'in_corso' : 'conclusa' });
  });
  return { send: send as unknown as typeof fetch, requests, applied };
}

// A refusal without the server's words is told in the reader's language (Italian here).
beforeAll(() => setSharedTranslator(tFor('it')));

beforeEach(async () => {
  await clearActions();
  await forgetDevice();
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the queue of ride steps', () => {
  it('keeps what was tapped offline, in the order of the taps, for its user only', async () => {
    const first = action({ prenotazioneId: 11 }, new Date('2026-05-04T08:42:10.000Z'));
    const second = action({ tipo: 'riconsegna', prenotazioneId: 11 }, new Date('2026-05-04T09:30:00.000Z'));
    const someoneElse = action({ userId: 99, prenotazioneId: 50 });
    // Stored out of order: the queue still gives them back in the order of the taps.
    await enqueue(second);
    await enqueue(someoneElse);
    await enqueue(first);
    const mine = await listActions(ADA);
    expect(mine.map((a) => a.idAzione)).toEqual([first.idAzione, second.idAzione]);
    expect(mine.every((a) => a.stato === 'in_attesa')).toBe(true);
  });

  it('sends the waiting steps oldest first, each with its id and the time of the tap, and empties itself', async () => {
    const pickUp = action({ prenotazioneId: 11 }, new Date('2026-05-04T08:42:10.000Z'));
    const giveBack = action(
      { tipo: 'riconsegna', prenotazioneId: 11, danno: { categoria: 'freni', descrizione: 'Il freno non frena' } },
      new Date('2026-05-04T09:30:00.000Z'),
    );
    await enqueue(giveBack);
    await enqueue(pickUp);
    const server = fakeServer();
    const result = await flushQueue(ADA, server.send);
    expect(result.stopped).toBeNull();
    expect(server.requests).toEqual([
      { url: '/api/prenotazioni/11/ritiro', body: { idAzione: pickUp.idAzione, oraDispositivo: '2026-05-04T08:42:10.000Z' } },
      {
        url: '/api/prenotazioni/11/riconsegna',
        body: {
          idAzione: giveBack.idAzione,
          oraDispositivo: '2026-05-04T09:30:00.000Z',
          danno: { categoria: 'freni', descrizione: 'Il freno non frena' },
        },
      },
    ]);
    expect(result.sent.map((s) => s.action.idAzione)).toEqual([pickUp.idAzione, giveBack.idAzione]);
    expect(await listActions(ADA)).toEqual([]);
  });

  it('sends only the steps of the given user', async () => {
    await enqueue(action({ userId: 99, prenotazioneId: 50 }));
    const server = fakeServer();
    await flushQueue(ADA, server.send);
    expect(server.requests).toEqual([]);
    expect(await listActions(99)).toHaveLength(1);
  });

  it('is safe to send twice (page and service worker both): the server applies the id once', async () => {
    const pickUp = action();
    await enqueue(pickUp);
    const server = fakeServer();
    // The page's send and the worker's, at the same moment.
    const [a, b] = await Promise.all([flushQueue(ADA, server.send), flushQueue(ADA, server.send)]);
    expect(a.sent.length + b.sent.length).toBeGreaterThanOrEqual(1);
    expect(server.applied.size).toBe(1);
    // The same id sent again later (the answer of the first send was lost): applied once still.
    await enqueue(pickUp);
    await flushQueue(ADA, server.send);
    expect(server.applied.size).toBe(1);
    expect(server.requests.every((r) => r.body.idAzione === pickUp.idAzione)).toBe(true);
    expect(await listActions(ADA)).toEqual([]);
  });

});

describe('the queue of ride steps, when the server fails, refuses or the user changes', () => {
  it('stops at a network failure and keeps that step and the ones after it', async () => {
    const first = action({ prenotazioneId: 11 }, new Date('2026-05-04T08:00:00.000Z'));
    const second = action({ prenotazioneId: 12 }, new Date('2026-05-04T08:01:00.000Z'));
    await enqueue(first);
    await enqueue(second);
    const send = vi.fn(() => Promise.reject(new TypeError('Failed to fetch')));
    const result = await flushQueue(ADA, send as unknown as typeof fetch);
    expect(result).toEqual({ sent: [], refused: [], stopped: 'offline' });
    expect(send).toHaveBeenCalledTimes(1);
    expect((await listActions(ADA)).map((a) => [a.idAzione, a.stato])).toEqual([
      [first.idAzione, 'in_attesa'],
      [second.idAzione, 'in_attesa'],
    ]);
  });

  it.each([401, 429, 500, 503])('keeps a step the server cannot take now (%i) for the next time', async (status) => {
    await enqueue(action());
    const send = vi.fn(async () => Response.json({ message: 'Non ora' }, { status }));
    const result = await flushQueue(ADA, send as unknown as typeof fetch);
    expect(result.stopped).toBe('later');
    expect((await listActions(ADA)).map((a) => a.stato)).toEqual(['in_attesa']);
  });

  it('keeps a refused step with the server’s words until the user has read it, and sends the others', async () => {
    const released = action({ prenotazioneId: 11 }, new Date('2026-05-04T08:00:00.000Z'));
    const fine = action({ prenotazioneId: 12 }, new Date('2026-05-04T08:05:00.000Z'));
    await enqueue(released);
    await enqueue(fine);
    const server = fakeServer({ refuse: { 11: 'La prenotazione non è più attiva: la bici non è stata ritirata in tempo' } });
    const result = await flushQueue(ADA, server.send);
    expect(result.sent.map((s) => s.action.idAzione)).toEqual([fine.idAzione]);
    expect(result.refused).toEqual([
      expect.objectContaining({
        idAzione: released.idAzione,
        stato: 'rifiutata',
        messaggio: 'La prenotazione non è più attiva: la bici non è stata ritirata in tempo',
      }),
    ]);
    // Not lost, and not sent again: it waits for the user.
    expect(await listActions(ADA)).toEqual([expect.objectContaining({ idAzione: released.idAzione, stato: 'rifiutata' })]);
    await flushQueue(ADA, server.send);
    expect(server.requests.filter((r) => r.body.idAzione === released.idAzione)).toHaveLength(1);
    await dismissAction(released.idAzione);
    expect(await listActions(ADA)).toEqual([]);
  });

  it('words a refusal without a JSON message generically', async () => {
    await enqueue(action());
    const send = vi.fn(async () => new Response('<html>Conflict</html>', { status: 409 }));
    const result = await flushQueue(ADA, send as unknown as typeof fetch);
    expect(result.refused[0]?.messaggio).toBe('Il server non ha accettato la richiesta');
  });

  it('drops the steps of anyone else once another user is confirmed on the device', async () => {
    await enqueue(action({ userId: 99 }));
    await enqueue(action({ prenotazioneId: 13 }));
    await dropActionsOfOthers(ADA);
    expect(await listActions(99)).toEqual([]);
    expect(await listActions(ADA)).toHaveLength(1);
  });

  it('tells the other contexts when it changes, and whether the server answered', async () => {
    const heard: boolean[] = [];
    const stop = onQueueChange((answered) => heard.push(answered));
    try {
      await enqueue(action());
      await flushQueue(ADA, fakeServer().send);
      await vi.waitFor(() => expect(heard).toEqual([false, true]));
    } finally {
      stop();
    }
  });
});

describe('logout', () => {
  it('leaves nothing of the user on the device: the queue, the remembered user, the kept data', async () => {
    await saveDeviceUser(user);
    await enqueue(action());
    expect(await readDeviceUser()).toEqual(expect.objectContaining({ user }));
    await forgetDevice();
    expect(await readDeviceUser()).toBeUndefined();
    expect(await listActions(ADA)).toEqual([]);
  });

  it('forgets a user whose session can no longer be alive (30 days without the server)', async () => {
    const confirmed = Date.parse('2026-05-01T10:00:00.000Z');
    await saveDeviceUser(user, confirmed);
    expect(await readDeviceUser(confirmed + 29 * 24 * 3_600_000)).toBeDefined();
    expect(await readDeviceUser(confirmed + 31 * 24 * 3_600_000)).toBeUndefined();
  });
});
