import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
// Global styles first, so each feature's stylesheet can refine them.
import './app/styles.css';
import { App } from './app/App';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
