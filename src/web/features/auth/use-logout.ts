import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useLocation } from 'wouter';
import { toast } from '../../components/ui/use-toast';
import { apiRequest } from '../../lib/api';
import { setSessionUser } from '../../lib/session';
import { serverMessage } from './api-errors';

/**
 * Logout (spec §7): POST /api/logout, then every cached answer is dropped (the next user
 * of this browser must not see them), a goodbye toast, and the login screen.
 *
 *   const logout = useLogout();
 *   <Button onClick={() => logout.mutate()} disabled={logout.isPending}>Esci</Button>
 */
export function useLogout() {
  const [, navigate] = useLocation();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest('POST', '/api/logout'),
    onSuccess: () => {
      navigate('/login');
      queryClient.clear();
      // Known anonymous at once: the login screen shows without reading the session again.
      setSessionUser(null);
      toast({ title: 'Arrivederci!', description: 'Sei uscito da BiciElis.' });
    },
    onError: (error) => {
      toast({ variant: 'destructive', title: 'Logout failed', description: serverMessage(error) });
    },
  });
}
