/** Shape of GET /api/config: the only server settings the page may see. */
export interface PublicConfig {
  version: string;
  production: boolean;
  payment: { provider: 'stripe' | 'simulated'; publishableKey: string | null };
  timeZone: string;
  bookingHorizonDays: number;
}

export interface HealthStatus {
  status: 'ok' | 'error';
  db: 'ok' | 'error';
}

export interface ApiErrorBody {
  message: string;
  code?: string;
  fields?: Record<string, string>;
  requiresPasswordChange?: boolean;
  userId?: number;
}
