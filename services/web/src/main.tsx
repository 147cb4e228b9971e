import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app.tsx';
import { refreshStreaming } from './hooks/use-streaming.ts';
import { session } from './session.ts';
import './styles.css';

// Both requests start before the first render: the Listen page needs them at once.
void session.load();
void refreshStreaming();

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
