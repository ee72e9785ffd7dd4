import { type ModuleOperations, op } from '../../http/operation.js';

/** The OpenAPI words for routes.ts beyond its zod schemas (decision 031), gathered by api-docs/catalogue.ts. */
export const passkeyOperations: ModuleOperations = {
  tag: { name: 'Passkey', description: 'Accesso con una passkey (WebAuthn), anche come secondo fattore degli amministratori (issue 49)' },
  routes: {
    'GET /api/passkeys': op('user', 'Le passkey della persona e la scelta della passkey come secondo fattore'),
    'POST /api/passkeys/registrazione/opzioni': op('user', 'Opzioni per creare una passkey (PublicKeyCredentialCreationOptionsJSON) e cookie della sfida'),
    'POST /api/passkeys/registrazione': op('user', 'Registrazione di una passkey, chiamata come il dispositivo', {
      ok: 201,
      returns: 'La passkey creata',
      errors: { 400: 'passkeys.registrationFailed' },
    }),
    'DELETE /api/passkeys/:id': op('owner', 'Rimozione di una passkey', {
      errors: { 409: ['passkeys.lastSecondFactor', 'http.lastWayIn'] },
    }),
    'PUT /api/passkeys/secondo-fattore': op('admin', 'Passkey come secondo fattore: attiva o disattiva', {
      returns: 'Le passkey e la scelta aggiornata',
      errors: { 409: 'passkeys.noneYet' },
    }),
    'POST /api/auth/passkey/opzioni': op('public', 'Opzioni per accedere con una passkey (PublicKeyCredentialRequestOptionsJSON) e cookie della sfida'),
    'POST /api/auth/passkey': op('public', 'Accesso con una passkey', {
      returns: "L'utente, con una nuova sessione",
      errors: { 403: 'auth.accountDisabled' },
      rateLimited: true,
    }),
    'POST /api/login/passkey/opzioni': op('second-factor', 'Secondo passo dell’accesso: opzioni per usare una delle proprie passkey', {
      errors: { 409: 'passkeys.noneYet' },
    }),
    'POST /api/login/passkey': op('second-factor', 'Secondo passo dell’accesso con una passkey', {
      returns: "L'utente, con una nuova sessione",
      errors: { 400: 'passkeys.notRecognised' },
      rateLimited: true,
    }),
  },
};
