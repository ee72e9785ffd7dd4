import { z } from 'zod';

// Default validation messages in Italian, on the server and in the forms alike.
z.config(z.locales.it());

export { z };
