import { ApiProperty } from '@nestjs/swagger';
import { ClaimMapperDto } from './claim-mapper.dto.js';

/** A scheme as the admin API shows it: built-in ones (code) and upstream ones (data) alike; never a secret. */
export class EidSchemeDto {
  @ApiProperty({ example: 'bankid-no' }) id: string;
  @ApiProperty({ enum: ['built-in', 'upstream-oidc'], example: 'upstream-oidc', description: 'built-in schemes are code and cannot be changed here' })
  kind: 'built-in' | 'upstream-oidc';
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' }, example: { en_GB: 'BankID', nb_NO: 'BankID' } }) labels: Record<string, string>;
  @ApiProperty({ enum: ['customer-test', 'production'], example: 'production' }) environment: string;
  @ApiProperty({ example: true, description: 'offered to merchants (built-in: when this environment runs it)' }) enabled: boolean;
  @ApiProperty({ nullable: true, type: String, example: 'https://auth.bankid.example/oidc' }) issuer: string | null;
  @ApiProperty({ nullable: true, type: String, example: 'broker-prod-01' }) client_id: string | null;
  @ApiProperty({ example: true, description: 'whether a client secret is stored (the secret itself is never shown)' }) client_secret_set: boolean;
  @ApiProperty({ nullable: true, type: String, example: 'private_key_jwt' }) token_endpoint_auth_method: string | null;
  @ApiProperty({ nullable: true, type: String, example: 'RS256', description: 'private_key_jwt only: the client assertion algorithm' })
  token_endpoint_auth_signing_alg: string | null;
  @ApiProperty({ nullable: true, type: String, example: 'RSA-OAEP-256', description: 'null: plain signed ID tokens from the upstream' })
  id_token_encrypted_response_alg: string | null;
  @ApiProperty({ nullable: true, type: String, example: 'A256GCM' }) id_token_encrypted_response_enc: string | null;
  @ApiProperty({ nullable: true, type: String, example: 'openid profile' }) scope: string | null;
  @ApiProperty({ type: [String], example: ['urn:bankid:substantial'] }) acr_values: string[];
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' }, example: { 'urn:bankid:high': 'urn:svc:cert:eidas:high' } }) acr_map: Record<
    string,
    string
  >;
  @ApiProperty({ type: [String], example: ['urn:svc:cert:eidas:high'], description: 'our acr values this scheme can reach' }) reachable_acr: string[];
  @ApiProperty({ example: true }) pass_ui_locales: boolean;
  @ApiProperty({ example: false }) pass_login_hint: boolean;
  @ApiProperty({ example: false }) userinfo: boolean;
  @ApiProperty({ type: [String], example: ['bankid', 'mfa'] }) amr: string[];
  @ApiProperty({ nullable: true, type: String, example: 'sub' }) subject_claim: string | null;
  @ApiProperty({ nullable: true, type: String, example: 'hashed' }) subject_mode: string | null;
  @ApiProperty({ type: [ClaimMapperDto] }) claim_mappers: ClaimMapperDto[];
  @ApiProperty({
    nullable: true,
    type: String,
    example: 'https://broker.example/its/eid/callback',
    description: 'the redirect URI to register at the upstream',
  })
  redirect_uri: string | null;
  @ApiProperty({
    nullable: true,
    type: String,
    example: 'https://broker.example/its/eid/jwks',
    description: 'the jwks_uri to register at the upstream (private_key_jwt, encrypted ID tokens)',
  })
  jwks_uri: string | null;
  @ApiProperty({ nullable: true, type: String, example: '2026-11-02T09:15:00.000Z' }) created_at: string | null;
  @ApiProperty({ nullable: true, type: String, example: '2026-11-20T14:03:27.000Z' }) updated_at: string | null;
}

export class EidSchemeListDto {
  @ApiProperty({ example: 3 }) total: number;
  @ApiProperty({ type: [EidSchemeDto] }) items: EidSchemeDto[];
}
