import { describe, expect, it } from 'vitest';
import { checkBaseUrl, checkConnectDraft, sameOrigin, type ConnectDraft } from './connection-form.std.ts';

const SHOP = '3f1c2a4e-8b7d-4c1e-9a2b-5d6e7f8a9b0c';
const draft = (values: Partial<ConnectDraft>): ConnectDraft => ({
  baseUrl: 'https://api.example.com',
  apiKey: 'key',
  accessToken: '',
  personalAccessToken: '',
  shopUuid: SHOP,
  ...values,
});

describe('connecting the platform: checked before anything is sent', () => {
  it('takes https anywhere and http only to this computer, without the trailing slash', () => {
    expect(checkBaseUrl(' https://api.example.com/v1/ ')).toEqual({ ok: true, url: 'https://api.example.com/v1' });
    expect(checkBaseUrl('http://127.0.0.1:4010/api')).toEqual({ ok: true, url: 'http://127.0.0.1:4010/api' });
    expect(checkBaseUrl('http://localhost:8080')).toMatchObject({ ok: true });
    expect(checkBaseUrl('http://[::1]:8080')).toMatchObject({ ok: true });
    expect(checkBaseUrl('http://api.example.com')).toEqual({ ok: false, problem: 'console.problem.https' });
    expect(checkBaseUrl('http://192.168.1.20/api')).toEqual({ ok: false, problem: 'console.problem.https' });
  });

  it('refuses what is no web address', () => {
    for (const text of ['', 'api.example.com', 'ftp://api.example.com', 'https://user:pw@api.example.com', `https://a.example/${'x'.repeat(500)}`]) {
      expect(checkBaseUrl(text)).toEqual({ ok: false, problem: 'console.problem.url' });
    }
  });

  it('needs an API key unless one is stored, and a shop uuid', () => {
    expect(checkConnectDraft(draft({ apiKey: ' ', shopUuid: 'shop 1' }), { keyStored: false })).toEqual({
      ok: false,
      problems: { apiKey: 'console.problem.api_key', shopUuid: 'console.problem.uuid' },
    });
    expect(checkConnectDraft(draft({ apiKey: '' }), { keyStored: true })).toEqual({
      ok: true,
      value: { baseUrl: 'https://api.example.com', shopUuid: SHOP, secrets: {} },
    });
  });

  it('sends only the secrets typed, trimmed', () => {
    const checked = checkConnectDraft(draft({ apiKey: ' k1 ', personalAccessToken: 'p1', shopUuid: SHOP.toUpperCase() }), { keyStored: false });
    expect(checked).toEqual({ ok: true, value: { baseUrl: 'https://api.example.com', shopUuid: SHOP, secrets: { apiKey: 'k1', personalAccessToken: 'p1' } } });
  });

  it('counts a stored key only for the saved URL\'s origin', () => {
    expect(sameOrigin(' https://api.example.com/v2 ', 'https://api.example.com/v1')).toBe(true);
    expect(sameOrigin('https://api.example.com:8443', 'https://api.example.com')).toBe(false);
    expect(sameOrigin('https://other.example.com', 'https://api.example.com')).toBe(false);
    expect(sameOrigin('http://api.example.com', 'https://api.example.com')).toBe(false);
    expect(sameOrigin('https://api.example.com', null)).toBe(false);
    expect(sameOrigin('not a url', 'https://api.example.com')).toBe(false);
  });
});
