import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import type { QueuedAction } from '../../offline/actions';
import { pendingActionsQuery } from './queries';

/** The query's result as the dashboard reads it, before and after the device's queue has been read. */
async function dataBeforeAndAfter(queue: QueuedAction[]) {
  const client = new QueryClient();
  const observer = new QueryObserver(client, { ...pendingActionsQuery(7), queryFn: () => Promise.resolve(queue) });
  const unsubscribe = observer.subscribe(() => undefined);
  const before = observer.getCurrentResult().data;
  await client.getQueryCache().find({ queryKey: pendingActionsQuery(7).queryKey })!.promise;
  await new Promise((resolve) => setTimeout(resolve, 0));
  const after = observer.getCurrentResult();
  unsubscribe();
  return { before, after: after.data, status: after.status };
}

describe('the pending actions the dashboard reads from the device', () => {
  it('an empty queue is the very array the page rendered with: nothing for the screen to render again', async () => {
    const { before, after, status } = await dataBeforeAndAfter([]);
    expect(status).toBe('success');
    expect(before).toEqual([]);
    expect(after).toBe(before);
  });

  it('a queued step replaces it', async () => {
    const step = { idAzione: 'a1', userId: 7 } as unknown as QueuedAction;
    const { before, after } = await dataBeforeAndAfter([step]);
    expect(before).toEqual([]);
    expect(after).toEqual([step]);
  });
});
