import { LazyToaster } from './components/ui/lazy-toaster';
import { AppRoutes } from './routes';

export function App() {
  return (
    <>
      <AppRoutes />
      <LazyToaster />
    </>
  );
}
