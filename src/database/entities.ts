import { AdminTokenEntity } from '../admin/admin-token.entity.js';
import { AuditRecordEntity } from '../admin/audit-record.entity.js';
import { MerchantEntity } from '../merchants/merchant.entity.js';

export const ENTITIES = [MerchantEntity, AdminTokenEntity, AuditRecordEntity];
