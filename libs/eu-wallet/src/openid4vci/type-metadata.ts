/**
 * The SD-JWT VC Type Metadata document served at the vct URL (SD-JWT VC draft, "SD-JWT VC Type Metadata": "Type
 * Metadata Format", "Display Metadata", "Claim Metadata"). Field names of the current drafts (-12 and later, which
 * renamed `lang` to `locale`): display entries {locale, name, description}, claim display entries {locale, label,
 * description}, claim `sd` 'always' | 'never'. Checked against @sd-jwt/sd-jwt-vc's TypeMetadataFormatSchema.
 */
import { TypeMetadataFormatSchema } from '@sd-jwt/sd-jwt-vc';
import type { ClaimDescription, LocalizedDisplay } from './display.js';

export interface TypeMetadataInput {
  vct: string;
  /** The first entry also gives the document's developer-facing name and description. */
  display: LocalizedDisplay[];
  claims: ClaimDescription[];
}

export interface TypeMetadataDocument {
  vct: string;
  name: string;
  description?: string;
  display: { locale: string; name: string; description?: string }[];
  claims: { path: (string | number | null)[]; display: { locale: string; label: string; description?: string }[]; sd: 'always' | 'never' }[];
}

export function verifiedIdentityTypeMetadata(input: TypeMetadataInput): TypeMetadataDocument {
  const [first] = input.display;
  if (!first) throw new Error('type metadata needs at least one display entry');
  const withDescription = <T extends object>(entry: T, description?: string) => (description ? { ...entry, description } : entry);
  const document: TypeMetadataDocument = {
    vct: input.vct,
    ...withDescription({ name: first.name }, first.description),
    display: input.display.map((d) => withDescription({ locale: d.locale, name: d.name }, d.description)),
    claims: input.claims.map((c) => ({
      path: c.path,
      display: c.display.map((d) => withDescription({ locale: d.locale, label: d.name }, d.description)),
      sd: c.sd ?? 'always',
    })),
  };
  // The library's schema as a check of the shape; what is served is our document (the schema also rewrites lang).
  TypeMetadataFormatSchema.parse(document);
  return document;
}
