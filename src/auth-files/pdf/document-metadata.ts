/**
 * The merchant's `metadata` (spec 4.8: dc, xmp, pdf, custom) as the PDF's document information dictionary and
 * its XMP packet. pdfkit writes Title, Author, Subject and Keywords into XMP without escaping them (a `<` in a
 * title breaks the packet), so the XMP is built here, every value escaped, and pdfkit's own builder replaced.
 */
export interface MerchantMetadata {
  dc?: Record<string, string>;
  xmp?: Record<string, string>;
  pdf?: Record<string, string>;
  custom?: Record<string, string>;
}

export interface DocumentMetadata {
  /** Entries for pdfkit's `info` (the information dictionary); strings become PDF text strings. */
  info: Record<string, string | Date>;
  /** rdf:Description elements for the XMP packet. */
  xmp: string;
}

/** Keys of the information dictionary a custom entry may not take over (ISO 32000-2 Table 46). */
export const RESERVED_INFO_KEYS = ['Title', 'Author', 'Subject', 'Keywords', 'Creator', 'Producer', 'CreationDate', 'ModDate', 'Trapped'];

export const PRODUCER = 'Identity broker auth-files (pdfkit)';
/** XMP namespace of the merchant's custom keys. */
const CUSTOM_NS = 'urn:identity-broker:auth-files:custom:1.0#';

/** Dublin Core element kinds (XMP specification part 1, 8.4): language alternatives, ordered and unordered arrays. */
const DC_ALT = new Set(['title', 'description', 'rights']);
const DC_SEQ = new Set(['creator', 'date']);
const DC_BAG = new Set(['subject', 'publisher', 'contributor', 'type', 'language', 'relation']);

export function documentMetadata(m: MerchantMetadata, defaults: { title: string; language: string }, created: Date): DocumentMetadata {
  const dc: Record<string, string> = { title: defaults.title, ...m.dc };
  const info: Record<string, string | Date> = {
    Title: dc.title,
    Creator: m.xmp?.CreatorTool ?? PRODUCER,
    Producer: PRODUCER,
    CreationDate: created,
    ModDate: created,
  };
  if (dc.creator) info.Author = dc.creator;
  const subject = dc.description ?? dc.subject;
  if (subject) info.Subject = subject;
  if (m.pdf?.Keywords) info.Keywords = m.pdf.Keywords;
  for (const [key, value] of Object.entries(m.custom ?? {})) info[key] = value;

  const date = xmpDate(created);
  const xmpProps = { CreatorTool: info.Creator as string, ...m.xmp };
  const parts = [
    description('xmlns:xmp="http://ns.adobe.com/xap/1.0/"', [
      `<xmp:CreateDate>${date}</xmp:CreateDate>`,
      `<xmp:ModifyDate>${date}</xmp:ModifyDate>`,
      `<xmp:MetadataDate>${date}</xmp:MetadataDate>`,
      ...Object.entries(xmpProps).map(([k, v]) => `<xmp:${k}>${escapeXml(v)}</xmp:${k}>`),
    ]),
    description('xmlns:dc="http://purl.org/dc/elements/1.1/"', [
      '<dc:format>application/pdf</dc:format>',
      ...Object.entries(dc).map(([k, v]) => dcElement(k, v, defaults.language)),
      // The information dictionary's Subject is dc:description in XMP (PDF/A asks both to agree).
      ...(subject && dc.description === undefined ? [dcElement('description', subject, defaults.language)] : []),
    ]),
    description('xmlns:pdf="http://ns.adobe.com/pdf/1.3/"', [
      `<pdf:Producer>${escapeXml(PRODUCER)}</pdf:Producer>`,
      ...(m.pdf?.Keywords ? [`<pdf:Keywords>${escapeXml(m.pdf.Keywords)}</pdf:Keywords>`] : []),
    ]),
  ];
  const custom = Object.entries(m.custom ?? {});
  if (custom.length) {
    parts.push(
      description(
        `xmlns:custom="${CUSTOM_NS}"`,
        custom.map(([k, v]) => `<custom:${k}>${escapeXml(v)}</custom:${k}>`),
      ),
    );
    parts.push(customSchemaDescription(custom.map(([k]) => k)));
  }
  return { info, xmp: parts.join('\n') };
}

/**
 * The PDF/A extension schema (ISO 19005-1 §6.7.8) that declares the custom namespace and its properties, so a
 * PDF/A file may carry them; other readers ignore it.
 */
function customSchemaDescription(keys: string[]): string {
  const properties = keys.map(
    (k) =>
      `<rdf:li rdf:parseType="Resource"><pdfaProperty:name>${k}</pdfaProperty:name><pdfaProperty:valueType>Text</pdfaProperty:valueType><pdfaProperty:category>external</pdfaProperty:category><pdfaProperty:description>merchant metadata</pdfaProperty:description></rdf:li>`,
  );
  return description(
    'xmlns:pdfaExtension="http://www.aiim.org/pdfa/ns/extension/" xmlns:pdfaSchema="http://www.aiim.org/pdfa/ns/schema#" xmlns:pdfaProperty="http://www.aiim.org/pdfa/ns/property#"',
    [
      '<pdfaExtension:schemas><rdf:Bag><rdf:li rdf:parseType="Resource">',
      '  <pdfaSchema:schema>Auth-files custom metadata</pdfaSchema:schema>',
      `  <pdfaSchema:namespaceURI>${CUSTOM_NS}</pdfaSchema:namespaceURI>`,
      '  <pdfaSchema:prefix>custom</pdfaSchema:prefix>',
      `  <pdfaSchema:property><rdf:Seq>${properties.join('')}</rdf:Seq></pdfaSchema:property>`,
      '</rdf:li></rdf:Bag></pdfaExtension:schemas>',
    ],
  );
}

function description(namespace: string, children: string[]): string {
  return `<rdf:Description rdf:about="" ${namespace}>\n${children.map((c) => `  ${c}`).join('\n')}\n</rdf:Description>`;
}

function dcElement(key: string, value: string, language: string): string {
  const v = escapeXml(value);
  if (DC_ALT.has(key)) return `<dc:${key}><rdf:Alt><rdf:li xml:lang="x-default">${v}</rdf:li></rdf:Alt></dc:${key}>`;
  if (DC_SEQ.has(key)) return `<dc:${key}><rdf:Seq><rdf:li>${v}</rdf:li></rdf:Seq></dc:${key}>`;
  if (DC_BAG.has(key)) return `<dc:${key}><rdf:Bag><rdf:li>${key === 'language' ? v || language : v}</rdf:li></rdf:Bag></dc:${key}>`;
  return `<dc:${key}>${v}</dc:${key}>`;
}

/**
 * XML text content: the five special characters as references, and the characters XML 1.0 cannot carry at all
 * (C0 controls other than tab and line ends, lone surrogates, U+FFFE/U+FFFF) dropped.
 */
export function escapeXml(value: string): string {
  return value
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '')
    .replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);
}

/** XMP dates: ISO 8601 with a time zone, to the second. */
function xmpDate(d: Date): string {
  return `${d.toISOString().slice(0, 19)}Z`;
}
