import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** customer-test only: the one specimen CSCA/DS of this environment, sealed (private keys inside). */
@Entity('specimen_authorities')
export class SpecimenAuthorityEntity {
  @PrimaryColumn({ type: 'text' }) id: string;
  @Column({ type: 'text' }) sealed: string;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}
