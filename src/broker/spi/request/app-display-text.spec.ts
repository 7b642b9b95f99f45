import { appDisplayText } from './app-display-text.js';

/** Issue 10 point 3: what the phone app gets of a binding message / transaction text is never HTML. */
describe('appDisplayText: merchant text for the app, never HTML', () => {
  it('removes tags, comments, declarations and autolinks, closed or not, also when pieces would join', () => {
    expect(appDisplayText('Pay <b>100</b> NOK<script>alert(1)</script>')).toBe('Pay 100 NOKalert(1)');
    expect(appDisplayText('a<!-- x -->b<!DOCTYPE html>c<?php x ?>d<https://evil.example>e')).toBe('abcde');
    expect(appDisplayText('Pay 100 <img src=x onerror=alert(1)')).toBe('Pay 100 ');
    expect(appDisplayText('<scr<script>ipt>alert(1)</scr</script>ipt>')).toBe('ipt>alert(1)ipt>');
    expect(appDisplayText('<<script>script>x')).not.toMatch(/<[a-z]/i);
    expect(appDisplayText('<svg/onload=alert(1)>ok')).toBe('ok');
  });

  it('keeps text that starts no HTML construct: comparisons, quotes, entities stay text', () => {
    expect(appDisplayText('amount < 100 and > 5')).toBe('amount < 100 and > 5');
    expect(appDisplayText('> quoted\n\n**Pay** 100 NOK', 'markdown')).toBe('> quoted\n\n**Pay** 100 NOK');
    expect(appDisplayText('&lt;b&gt;')).toBe('&lt;b&gt;');
  });

  it('removes control characters except tab and newline', () => {
    expect(appDisplayText('a\u0000b\u0007c\td\r\ne\u001bf\u0085g')).toBe('abc\td\nefg');
  });

  it('disarms markdown images and non-https links and reference definitions; https links stay', () => {
    expect(appDisplayText('![pixel](https://tracker.example/p.png)', 'markdown')).toBe('[pixel](https://tracker.example/p.png)');
    expect(appDisplayText('[click](javascript:alert(1))', 'markdown')).toBe('[click] (javascript:alert(1))');
    expect(appDisplayText('[a [b] c](data:text/html,x)', 'markdown')).toBe('[a [b] c] (data:text/html,x)');
    expect(appDisplayText('[x][r]\n\n[r]: vbscript:msgbox', 'markdown')).toBe('[x][r]\n\n[r] : vbscript:msgbox');
    expect(appDisplayText('[terms](https://shop.example/terms)', 'markdown')).toBe('[terms](https://shop.example/terms)');
    expect(appDisplayText('[r]: https://shop.example/terms', 'markdown')).toBe('[r]: https://shop.example/terms');
    // Plain text is not markdown: brackets are left as they are.
    expect(appDisplayText('[click](javascript:alert(1))')).toBe('[click](javascript:alert(1))');
  });
});
