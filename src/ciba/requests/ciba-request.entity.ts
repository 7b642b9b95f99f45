import { Column, CreateDateColumn, Entity, Generated, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

export const CIBA_REQUEST_STATES = ['pending', 'verifying', 'approved', 'denied', 'cancelled'] as const;
export type CibaRequestState = (typeof CIBA_REQUEST_STATES)[number];
export type CibaRequestKind = 'provisioning' | 'authentication';

/**
 * Our side of one backchannel request (the engine keeps its own row, keyed by a hash of the auth_req_id):
 * which app it goes to, what the user is shown, how far it got. pending -> verifying (the app started the
 * document verification) -> approved | denied; pending -> denied (declined); pending | verifying -> cancelled
 * (the merchant cancelled it, spec 4.7 operation cancel).
 */
@Entity('ciba_requests')
export class CibaRequestEntity {
  @PrimaryGeneratedColumn('uuid') id: string;
  /** The app's long-poll cursor: requests in the order they were made. */
  @Column({ type: 'bigint' }) @Generated('increment') seq: string;
  @Column({ name: 'client_id', type: 'text' }) clientId: string;
  /** HMAC of the appId (app-key.ts): found by app without storing the id in clear. */
  @Column({ name: 'app_key', type: 'text' }) appKey: string;
  @Column({ type: 'text' }) kind: CibaRequestKind;
  @Column({ type: 'text' }) state: CibaRequestState;
  /** SHA-256 of the auth_req_id (a bearer credential), to find the row from a poll. */
  @Column({ name: 'auth_req_id_hash', type: 'text', unique: true }) authReqIdHash: string;
  /** CibaRequestDetails, sealed (binding texts, subject, the auth_req_id to complete the engine's request). */
  @Column({ type: 'text' }) sealed: string;
  /** The verification's interaction id (`ciba:<id>`) once the app started it. */
  @Column({ name: 'verification_uid', type: 'text', nullable: true }) verificationUid: string | null;
  @Column({ name: 'interval_seconds', type: 'integer' }) intervalSeconds: number;
  @Column({ name: 'last_polled_at', type: 'timestamptz', nullable: true }) lastPolledAt: Date | null;
  @Column({ name: 'expires_at', type: 'timestamptz' }) expiresAt: Date;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' }) updatedAt: Date;
}
