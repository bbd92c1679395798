import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import './app/tokens.css';
import './app/app.css';
import './components/components.css';
import './features/connect/connect.css';
import './features/models/models.css';
import './features/settings/settings.css';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
