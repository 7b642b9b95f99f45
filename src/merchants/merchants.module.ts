import { Module } from '@nestjs/common';
import { AdminModule } from '../admin/admin.module.js';
import { LogoAssetsController } from './logos/logo-assets.controller.js';
import { MerchantLogosService } from './logos/merchant-logos.service.js';
import { MerchantsController } from './merchants.controller.js';
import { MerchantCache } from './merchant-cache.js';
import { MerchantsService } from './merchants.service.js';
import { TypeOrmModule } from '@nestjs/typeorm';
import { MerchantEntity } from './merchant.entity.js';
import { MerchantLogoEntity } from './logos/merchant-logo.entity.js';

@Module({
  imports: [TypeOrmModule.forFeature([MerchantEntity, MerchantLogoEntity]), AdminModule],
  controllers: [MerchantsController, LogoAssetsController],
  providers: [MerchantsService, MerchantLogosService, MerchantCache],
  exports: [MerchantsService],
})
export class MerchantsModule {}
