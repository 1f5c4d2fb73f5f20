import { mount } from 'svelte';
import App from './App.svelte';
import { reportError } from './report-error.dom.ts';
import { dropStrayClicks } from './stray-click.dom.ts';
import './styles/global.css';

// Uncaught renderer errors go to the kiosk's log; the shopper only ever sees friendly screens.
window.addEventListener('error', (event) => reportError(event.error ?? event.message, 'window.onerror'));
window.addEventListener('unhandledrejection', (event) => reportError(event.reason, 'unhandledrejection'));

dropStrayClicks(window);
mount(App, { target: document.getElementById('app') as HTMLElement });
