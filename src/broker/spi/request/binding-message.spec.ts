import { BindingMessageError, parseBindingMessage, parseServiceContext, documentKindOf } from './binding-message.js';
import { documentType } from '../../../verifier-claims/document-type.js';

const b64 = (s: string) => Buffer.from(s).toString('base64');

describe('binding_message (spec 4.7)', () => {
  it('reads plain text as text', () => {
    expect(parseBindingMessage('Confirm login ABC-123')).toEqual({ text: 'Confirm login ABC-123' });
    expect(parseBindingMessage('Test')).toEqual({ text: 'Test' });
  });

  it('reads Base64 text and Base64 JSON', () => {
    expect(parseBindingMessage(b64('Bekreft innlogging'))).toEqual({ text: 'Bekreft innlogging' });
    expect(parseBindingMessage(b64(JSON.stringify({ bindingMessage: 'Hi', 'ntdr-doc-types': 'P' })))).toEqual({ text: 'Hi', documentKinds: ['P'] });
  });

  it('reads every JSON attribute', () => {
    const parsed = parseBindingMessage(
      JSON.stringify({
        'ntdr-doc-types': 'I, P,d',
        'ntdr-app-doclist': true,
        transactiontext: b64('**Pay** 100 NOK'),
        transactiontext_type: 'markdown',
        requestType: 'Provisioning',
        appId: 'app-1',
        bindingMessage: 'Shown on the phone',
      }),
    );
    expect(parsed).toEqual({
      documentKinds: ['I', 'P', 'D'],
      showDocumentList: true,
      transactionText: { type: 'markdown', content: '**Pay** 100 NOK' },
      requestType: 'Provisioning',
      appId: 'app-1',
      text: 'Shown on the phone',
      userStatus: 'active',
    });
    expect(parseBindingMessage(JSON.stringify({ operation: 'cancel', auth_req_id: 'abc' }))).toEqual({ operation: 'cancel', authReqId: 'abc' });
  });

  it.each([
    [JSON.stringify({ 'ntdr-doc-types': 'X' }), 'ntdr-doc-types'],
    [JSON.stringify({ transactiontext: 'A'.repeat(1504) }), 'longer than 1500'],
    [JSON.stringify({ transactiontext: b64('x'), transactiontext_type: 'html' }), 'transactiontext_type'],
    [JSON.stringify({ operation: 'cancel' }), 'auth_req_id'],
    [JSON.stringify({ operation: 'delete', auth_req_id: 'a' }), 'operation'],
    [JSON.stringify({ requestType: 'Other' }), 'requestType'],
    [JSON.stringify({ userStatus: 'inactive' }), 'provisioning only'],
    ['{"broken": ', 'does not parse'],
    ['x'.repeat(9000), 'longer than'],
  ])('refuses %s', (value, message) => {
    expect(() => parseBindingMessage(value)).toThrow(BindingMessageError);
    expect(() => parseBindingMessage(value)).toThrow(message);
  });

  it('refuses bidirectional controls that would make displayed text read differently, wherever the text sits', () => {
    const spoof = 'Pay \u202e001 EUR\u202c to Shop';
    for (const value of [spoof, b64(spoof), JSON.stringify({ bindingMessage: spoof }), JSON.stringify({ transactiontext: b64(spoof) })])
      expect(() => parseBindingMessage(value)).toThrow('bidirectional control characters');
    expect(() => parseServiceContext(b64(JSON.stringify({ amount: '\u2067100\u2069' })))).toThrow('bidirectional control characters');
    // Right-to-left text itself, and the plain direction marks, stay allowed.
    expect(parseBindingMessage('שלום \u200f123').text).toBe('שלום \u200f123');
  });

  it('svc_context is Base64 JSON shown as text', () => {
    expect(parseServiceContext(b64(JSON.stringify({ shop: 'Kiosk', amount: 5 })))).toBe('shop: Kiosk\namount: 5');
    expect(parseServiceContext(b64(JSON.stringify('hello')))).toBe('hello');
    expect(() => parseServiceContext('not base64!')).toThrow(BindingMessageError);
    expect(() => parseServiceContext(b64('not json'))).toThrow('Base64-encoded JSON');
  });
});

describe('document kinds of the MRZ document code', () => {
  it('follow the document_type claim: a merchant requiring a kind and the type it is told agree', () => {
    const cases: [string, string, string][] = [
      ['P<', 'P', 'PASSPORT'],
      ['PD', 'P', 'PASSPORT'],
      ['ID', 'I', 'ID_CARD'],
      ['I<', 'I', 'ID_CARD'],
      ['C<', 'I', 'ID_CARD'],
      ['IR', 'I', 'RESIDENCE_PERMIT'],
      ['AR', 'I', 'RESIDENCE_PERMIT'],
      // Spec 4.7: V is "visa or crew credentials"; 9303-5 names AC the crew member certificate.
      ['AC', 'V', 'CREW_MEMBER_CERTIFICATE'],
      ['V<', 'V', 'VISA'],
      ['DL', 'D', 'DRIVERS_LICENSE'],
      ['X<', 'other', 'OTHER'],
    ];
    expect(cases.map(([code]) => [code, documentKindOf(code), documentType(code)])).toEqual(cases);
  });
});
