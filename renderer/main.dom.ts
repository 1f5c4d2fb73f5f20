import { mount } from 'svelte';
import App from './App.svelte';
import { kiosk } from './kiosk.dom.ts';
import './styles/global.css';

// Uncaught renderer errors go to the kiosk's log; the shopper only ever sees friendly screens.
window.addEventListener('error', (event) => {
  void kiosk.reportRendererError({ message: String(event.message).slice(0, 2000), where: 'window.onerror' });
});
window.addEventListener('unhandledrejection', (event) => {
  void kiosk.reportRendererError({ message: String(event.reason).slice(0, 2000), where: 'unhandledrejection' });
});

mount(App, { target: document.getElementById('app') as HTMLElement });
