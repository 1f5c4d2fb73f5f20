import { describe, expect, it } from 'vitest';
import { escapeHtml } from './session-page.std.ts';

describe('the hosted session page', () => {
  it('escapes every character that could open markup', () => {
    expect(escapeHtml(`<script>alert("x" & 'y')</script>`)).toBe(
      '&lt;script&gt;alert(&quot;x&quot; &amp; &#39;y&#39;)&lt;/script&gt;',
    );
  });
});
