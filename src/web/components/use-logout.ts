import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useLocation } from 'wouter';
import { toast } from './ui/use-toast';
import { apiRequest } from '../lib/api';
import { t } from '../lib/i18n';
import { currentSession, setSessionUser } from '../lib/session';
import { refusalTitle } from '../offline/actions';
import { isNetworkFailure, serverMessage } from '../lib/api-errors';

/**
 * Logout (spec §7): POST /api/logout, then every cached answer is dropped (the next user
 * of this browser must not see them), a goodbye toast, and the login screen.
 *
 * Issue 22: the ride steps still queued on the device are sent first; after the logout the
 * data kept for offline use, the remembered user, the queue and the pages the service worker
 * kept go too (offline/device-data.ts). A refusal the user had not read, and a step that could
 * not be sent, are told, not dropped in silence. Offline there is no logout: the session lives
 * on the server, and only the server can end it.
 *
 *   const logout = useLogout();
 *   <Button onClick={() => logout.mutate()} disabled={logout.isPending}>{t('logout.button')}</Button>
 */
export function useLogout() {
  const [, navigate] = useLocation();
  const queryClient = useQueryClient();
  return useMutation({
    // Offline it must fail at once (and say why), not wait for the network.
    networkMode: 'always',
    mutationFn: async () => {
      if (!navigator.onLine) throw new TypeError('Offline');
      const device = await import('../offline/device-data');
      const user = currentSession().data;
      const left = user ? await device.sendQueuedBeforeLogout(user.id) : { refused: [], unsent: [] };
      await apiRequest('POST', '/api/logout');
      await device.forgetDevice();
      return left;
    },
    onSuccess: (left) => {
      navigate('/login');
      queryClient.clear();
      // Known anonymous at once: the login screen shows without reading the session again.
      setSessionUser(null);
      // One toast at a time (TOAST_LIMIT): what the queue left is told in the goodbye.
      const notes = [
        ...left.refused.map((a) => t('logout.refusedNote', { title: refusalTitle(a, t), numero: a.biciNumero, messaggio: a.messaggio ?? '' })),
        ...(left.unsent.length === 0 ? [] : [t('logout.unsent', { count: left.unsent.length })]),
      ];
      toast(
        notes.length === 0
          ? { title: t('logout.goodbyeTitle'), description: t('logout.goodbyeDescription') }
          : { variant: 'destructive', title: t('logout.loggedOutTitle'), description: notes.join(' '), duration: 20_000 },
      );
    },
    onError: (error) => {
      toast({
        variant: 'destructive',
        title: t('logout.failedTitle'),
        description: isNetworkFailure(error) ? t('logout.needsConnection') : serverMessage(error),
      });
    },
  });
}
