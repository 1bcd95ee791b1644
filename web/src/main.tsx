import { hydrate } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app/app';
import { queryClient } from './lib/api';
import { SERVER_STATE_ELEMENT_ID } from './lib/server-state';
import './index.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

const app = (
  <StrictMode>
    <App />
  </StrictMode>
);

// A public page arrives drawn, with the answers it was drawn from: React takes over what is there. Any other page
// arrives as the empty shell and is drawn here.
const serverState = document.getElementById(SERVER_STATE_ELEMENT_ID);
if (serverState?.textContent) {
  hydrate(queryClient, JSON.parse(serverState.textContent));
  hydrateRoot(root, app);
} else {
  createRoot(root).render(app);
}
