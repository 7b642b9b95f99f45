import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { AdminAuthGuard } from './admin-auth.guard.js';
import { AdminTokensService } from './admin-tokens.service.js';
import { AdminController } from './admin.controller.js';
import { AdminService } from './admin.service.js';
import { AuditService } from './audit.service.js';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AdminTokenEntity } from './admin-token.entity.js';
import { AuditRecordEntity } from './audit-record.entity.js';

@Module({
  imports: [TypeOrmModule.forFeature([AdminTokenEntity, AuditRecordEntity])],
  controllers: [AdminController],
  providers: [AdminTokensService, AuditService, AdminService, { provide: APP_GUARD, useClass: AdminAuthGuard }],
  exports: [AuditService, AdminTokensService],
})
export class AdminModule {}
