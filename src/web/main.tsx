import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { preloadScreenFor } from './screens';
import './styles.css';

const container = document.getElementById('root');
if (!container) throw new Error('Elemento #root mancante in index.html');

// The chunk of the screen being opened downloads while the session is read.
preloadScreenFor(window.location.pathname);

createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
