import { Body, Param, Query } from '@nestjs/common';
import { Actor, type AdminActor } from '../admin/admin-actor.js';
import { AdminAction, AdminCreate, AdminList, AdminRead, AdminResource, AdminUpdate } from '../admin/admin-resource.js';
import { PageQueryDto } from '../common/http/pagination.dto.js';
import { CreateMerchantDto } from './dto/create-merchant.dto.js';
import { MerchantDto, MerchantPageDto, MerchantSecretDto, MerchantWithSecretDto } from './dto/merchant-response.dto.js';
import { UpdateMerchantDto } from './dto/update-merchant.dto.js';
import { MerchantsService } from './merchants.service.js';

const CLIENT_ID = { name: 'clientId', description: 'merchant identifier (client_id)' };

@AdminResource('merchants', 'merchants')
export class MerchantsController {
  constructor(private readonly merchants: MerchantsService) {}

  @AdminCreate({ summary: 'Register a merchant; the answer carries the client secret, shown this once', type: MerchantWithSecretDto })
  create(@Body() dto: CreateMerchantDto, @Actor() actor: AdminActor): Promise<MerchantWithSecretDto> {
    return this.merchants.create(dto, actor);
  }

  @AdminList({ summary: 'List merchants, oldest first', type: MerchantPageDto })
  list(@Query() query: PageQueryDto): Promise<MerchantPageDto> {
    return this.merchants.list(query);
  }

  @AdminRead(CLIENT_ID, { summary: 'Read one merchant (never its secret)', type: MerchantDto })
  get(@Param('clientId') clientId: string): Promise<MerchantDto> {
    return this.merchants.get(clientId);
  }

  @AdminUpdate(CLIENT_ID, { summary: 'Change merchant settings; takes effect on the next request', type: MerchantDto })
  update(@Param('clientId') clientId: string, @Body() dto: UpdateMerchantDto, @Actor() actor: AdminActor): Promise<MerchantDto> {
    return this.merchants.update(clientId, dto, actor);
  }

  @AdminAction(CLIENT_ID, 'secret', { summary: 'Rotate the merchant secret; the old one stops working at once', type: MerchantSecretDto })
  rotateSecret(@Param('clientId') clientId: string, @Actor() actor: AdminActor): Promise<MerchantSecretDto> {
    return this.merchants.rotateSecret(clientId, actor);
  }

  @AdminAction(CLIENT_ID, 'disable', { summary: 'Disable a merchant: its logins and tokens are refused until enabled again', type: MerchantDto })
  disable(@Param('clientId') clientId: string, @Actor() actor: AdminActor): Promise<MerchantDto> {
    return this.merchants.setEnabled(clientId, false, actor);
  }

  @AdminAction(CLIENT_ID, 'enable', { summary: 'Enable a disabled merchant', type: MerchantDto })
  enable(@Param('clientId') clientId: string, @Actor() actor: AdminActor): Promise<MerchantDto> {
    return this.merchants.setEnabled(clientId, true, actor);
  }
}
