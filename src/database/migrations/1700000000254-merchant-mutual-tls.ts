import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * RFC 8705 for merchants: the certificate subject that authenticates a tls_client_auth merchant (§2.1.2, one of
 * the five members) and whether its tokens are bound to its certificate (§3). token_endpoint_auth_method is text
 * already; its two new values need no change.
 */
export class MerchantMutualTls1700000000254 implements MigrationInterface {
  name = 'MerchantMutualTls1700000000254';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE merchants ADD COLUMN tls_client_auth_subject_dn text, ADD COLUMN tls_client_auth_san_dns text, ADD COLUMN tls_client_auth_san_uri text,
        ADD COLUMN tls_client_auth_san_ip text, ADD COLUMN tls_client_auth_san_email text,
        ADD COLUMN tls_client_certificate_bound_access_tokens boolean NOT NULL DEFAULT false`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE merchants DROP COLUMN tls_client_auth_subject_dn, DROP COLUMN tls_client_auth_san_dns, DROP COLUMN tls_client_auth_san_uri,
        DROP COLUMN tls_client_auth_san_ip, DROP COLUMN tls_client_auth_san_email, DROP COLUMN tls_client_certificate_bound_access_tokens`,
    );
  }
}
