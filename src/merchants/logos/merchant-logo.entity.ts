import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/**
 * A merchant logo as fetched at registration, named by the SHA-256 of its bytes: merchants with the same
 * image share a row, and the address it is served at (/its/assets/logos/<sha256>) never shows other bytes.
 */
@Entity('merchant_logos')
export class MerchantLogoEntity {
  @PrimaryColumn({ type: 'text' }) sha256: string;
  @Column({ name: 'content_type', type: 'text' }) contentType: string;
  @Column({ type: 'bytea' }) bytes: Buffer;
  @Column({ type: 'integer' }) width: number;
  @Column({ type: 'integer' }) height: number;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}
