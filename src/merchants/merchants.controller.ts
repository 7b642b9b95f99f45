import { Body, Controller, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBearerAuth,
  ApiCreatedResponse,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import { Actor, AdminAccess, type AdminActor } from '../admin/admin-actor.js';
import { ErrorResponseDto } from '../common/http/error-response.dto.js';
import { PageQueryDto } from '../common/http/pagination.dto.js';
import { CreateMerchantDto } from './dto/create-merchant.dto.js';
import { MerchantDto, MerchantPageDto, MerchantSecretDto, MerchantWithSecretDto } from './dto/merchant-response.dto.js';
import { UpdateMerchantDto } from './dto/update-merchant.dto.js';
import { MerchantsService } from './merchants.service.js';

const ClientIdParam = ApiParam({ name: 'clientId', description: 'merchant identifier (client_id)' });

@ApiTags('merchants')
@ApiBearerAuth('admin-token')
@ApiUnauthorizedResponse({ type: ErrorResponseDto, description: 'no or invalid admin token' })
@ApiForbiddenResponse({ type: ErrorResponseDto, description: 'the support role is read-only' })
@Controller('admin/v1/merchants')
export class MerchantsController {
  constructor(private readonly merchants: MerchantsService) {}

  @Post()
  @AdminAccess('write')
  @ApiOperation({ summary: 'Register a merchant; the answer carries the client secret, shown this once' })
  @ApiCreatedResponse({ type: MerchantWithSecretDto })
  @ApiBadRequestResponse({ type: ErrorResponseDto, description: 'invalid fields, with a message per field' })
  create(@Body() dto: CreateMerchantDto, @Actor() actor: AdminActor): Promise<MerchantWithSecretDto> {
    return this.merchants.create(dto, actor);
  }

  @Get()
  @AdminAccess('read')
  @ApiOperation({ summary: 'List merchants, oldest first' })
  @ApiOkResponse({ type: MerchantPageDto })
  list(@Query() query: PageQueryDto): Promise<MerchantPageDto> {
    return this.merchants.list(query);
  }

  @Get(':clientId')
  @AdminAccess('read')
  @ClientIdParam
  @ApiOperation({ summary: 'Read one merchant (never its secret)' })
  @ApiOkResponse({ type: MerchantDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  get(@Param('clientId') clientId: string): Promise<MerchantDto> {
    return this.merchants.get(clientId);
  }

  @Patch(':clientId')
  @AdminAccess('write')
  @ClientIdParam
  @ApiOperation({ summary: 'Change merchant settings; takes effect on the next request' })
  @ApiOkResponse({ type: MerchantDto })
  @ApiBadRequestResponse({ type: ErrorResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  update(@Param('clientId') clientId: string, @Body() dto: UpdateMerchantDto, @Actor() actor: AdminActor): Promise<MerchantDto> {
    return this.merchants.update(clientId, dto, actor);
  }

  @Post(':clientId/secret')
  @HttpCode(200)
  @AdminAccess('write')
  @ClientIdParam
  @ApiOperation({ summary: 'Rotate the merchant secret; the old one stops working at once' })
  @ApiOkResponse({ type: MerchantSecretDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  rotateSecret(@Param('clientId') clientId: string, @Actor() actor: AdminActor): Promise<MerchantSecretDto> {
    return this.merchants.rotateSecret(clientId, actor);
  }

  @Post(':clientId/disable')
  @HttpCode(200)
  @AdminAccess('write')
  @ClientIdParam
  @ApiOperation({ summary: 'Disable a merchant: its logins and tokens are refused until enabled again' })
  @ApiOkResponse({ type: MerchantDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  disable(@Param('clientId') clientId: string, @Actor() actor: AdminActor): Promise<MerchantDto> {
    return this.merchants.setEnabled(clientId, false, actor);
  }

  @Post(':clientId/enable')
  @HttpCode(200)
  @AdminAccess('write')
  @ClientIdParam
  @ApiOperation({ summary: 'Enable a disabled merchant' })
  @ApiOkResponse({ type: MerchantDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  enable(@Param('clientId') clientId: string, @Actor() actor: AdminActor): Promise<MerchantDto> {
    return this.merchants.setEnabled(clientId, true, actor);
  }
}
