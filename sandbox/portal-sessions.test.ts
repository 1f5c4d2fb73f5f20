import { describe, expect, it } from 'vitest';
import { CreatePortalSessionBody } from '../api/portal-sessions.std.ts';
import { generateCredentials } from './credentials.std.ts';
import { seedDemoState } from './demo-data.std.ts';
import { createPortalSession, getPortalSession } from './portal-sessions.std.ts';

describe('stored portal sessions', () => {
  it('keeps every session with its type and settings, however many there are', () => {
    const state = seedDemoState(Date.parse('2030-01-01T00:00:00Z'), generateCredentials());
    const origin = 'http://127.0.0.1:4010';
    const body = CreatePortalSessionBody.parse({ shop_uuid: state.shops[0]!.uuid, scanner_type: 'hand_scanner' });
    const first = createPortalSession(state, 0, origin, 'pay_prepaid', body);
    for (let index = 0; index < 1500; index += 1) createPortalSession(state, 0, origin, 'default', body);

    expect(state.portal_sessions).toHaveLength(1501);
    expect(getPortalSession(state, origin, first.uuid)).toMatchObject({
      type: 'pay_prepaid',
      settings: { scanner_type: 'hand_scanner', camera_service: 3 },
    });
  });
});
