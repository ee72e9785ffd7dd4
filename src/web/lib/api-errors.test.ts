import { describe, expect, it } from 'vitest';
import { tFor } from '../../shared/i18n/all';
import { ApiError } from './api';
import { isNetworkFailure, recoveryErrorMessage, serverFieldErrors, serverMessage } from './api-errors';

describe('serverMessage', () => {
  it("is the body's message when the server sent one", () => {
    expect(serverMessage(new ApiError(409, { message: 'Email già registrata' }, 'Email già registrata'))).toBe(
      'Email già registrata',
    );
  });

  it('is undefined without a usable message, so the screen uses its own text', () => {
    expect(serverMessage(new ApiError(502, '<html>Bad gateway</html>', '502: <html>Bad gateway</html>'))).toBeUndefined();
    expect(serverMessage(new ApiError(500, { message: '  ' }, '500: x'))).toBeUndefined();
    expect(serverMessage(new TypeError('Failed to fetch'))).toBeUndefined();
  });
});

describe('serverFieldErrors', () => {
  it('keeps the string messages of `fields`', () => {
    const error = new ApiError(400, { message: 'x', fields: { email: 'Email non valida', n: 3 } }, 'x');
    expect(serverFieldErrors(error)).toEqual({ email: 'Email non valida' });
    expect(serverFieldErrors(new ApiError(400, { message: 'x' }, 'x'))).toEqual({});
    expect(serverFieldErrors(new Error('x'))).toEqual({});
  });
});

describe('isNetworkFailure', () => {
  it('is true only when no answer came back', () => {
    expect(isNetworkFailure(new TypeError('Failed to fetch'))).toBe(true);
    expect(isNetworkFailure(new ApiError(500, '', '500: Internal Server Error'))).toBe(false);
  });
});

describe('recoveryErrorMessage', () => {
  const italian = tFor('it');
  it("prefers the server's message, then 'Errore durante l'invio'; no answer is a connection error", () => {
    const limited = new ApiError(429, { message: 'Troppi tentativi. Riprova tra 15 minuti.' }, 'x');
    expect(recoveryErrorMessage(limited, italian)).toBe('Troppi tentativi. Riprova tra 15 minuti.');
    expect(recoveryErrorMessage(new ApiError(500, '', '500: Internal Server Error'), italian)).toBe("Errore durante l'invio");
    expect(recoveryErrorMessage(new TypeError('Failed to fetch'), italian)).toBe('Errore di connessione. Riprova più tardi.');
  });
});
