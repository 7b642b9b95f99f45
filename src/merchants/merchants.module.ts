import { Module } from '@nestjs/common';
import { AdminModule } from '../admin/admin.module.js';
import { LogoAssetsController } from './logos/logo-assets.controller.js';
import { MerchantLogosService } from './logos/merchant-logos.service.js';
import { MerchantsController } from './merchants.controller.js';
import { MerchantCache } from './merchant-cache.js';
import { MerchantsService } from './merchants.service.js';

@Module({
  imports: [AdminModule],
  controllers: [MerchantsController, LogoAssetsController],
  providers: [MerchantsService, MerchantLogosService, MerchantCache],
  exports: [MerchantsService],
})
export class MerchantsModule {}
