import { Body, Controller, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBearerAuth,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import { Actor, AdminAccess, type AdminActor } from '../../../admin/admin-actor.js';
import { ErrorResponseDto } from '../../../common/http/error-response.dto.js';
import { CreateEidSchemeDto, UpdateEidSchemeDto } from './dto/eid-scheme-requests.dto.js';
import { EidSchemeDto, EidSchemeListDto } from './dto/eid-scheme-response.dto.js';
import { EidSchemesService } from './eid-schemes.service.js';

const IdParam = ApiParam({ name: 'id', description: 'eID scheme id', example: 'bankid-no' });

@ApiTags('eid-schemes')
@ApiBearerAuth('admin-token')
@ApiUnauthorizedResponse({ type: ErrorResponseDto, description: 'no or invalid admin token' })
@ApiForbiddenResponse({ type: ErrorResponseDto, description: 'the support role is read-only' })
@Controller('admin/v1/eid-schemes')
export class EidSchemesController {
  constructor(private readonly schemes: EidSchemesService) {}

  @Post()
  @AdminAccess('write')
  @ApiOperation({ summary: 'Add an upstream OpenID Connect scheme (enabled at once; merchants pick it through eid_schemes)' })
  @ApiCreatedResponse({ type: EidSchemeDto })
  @ApiBadRequestResponse({ type: ErrorResponseDto, description: 'invalid fields, with a message per field' })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'the id is taken (by a built-in scheme or another)' })
  create(@Body() dto: CreateEidSchemeDto, @Actor() actor: AdminActor): Promise<EidSchemeDto> {
    return this.schemes.create(dto, actor);
  }

  @Get()
  @AdminAccess('read')
  @ApiOperation({ summary: 'List every scheme: built-in ones first, then upstream ones, oldest first' })
  @ApiOkResponse({ type: EidSchemeListDto })
  list(): Promise<EidSchemeListDto> {
    return this.schemes.list();
  }

  @Get(':id')
  @AdminAccess('read')
  @IdParam
  @ApiOperation({ summary: 'Read one scheme (never its client secret)' })
  @ApiOkResponse({ type: EidSchemeDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  get(@Param('id') id: string): Promise<EidSchemeDto> {
    return this.schemes.get(id);
  }

  @Patch(':id')
  @AdminAccess('write')
  @IdParam
  @ApiOperation({ summary: 'Change the fields sent; logins started after the change use it' })
  @ApiOkResponse({ type: EidSchemeDto })
  @ApiBadRequestResponse({ type: ErrorResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'built-in schemes cannot be changed' })
  update(@Param('id') id: string, @Body() dto: UpdateEidSchemeDto, @Actor() actor: AdminActor): Promise<EidSchemeDto> {
    return this.schemes.update(id, dto, actor);
  }

  @Post(':id/disable')
  @HttpCode(200)
  @AdminAccess('write')
  @IdParam
  @ApiOperation({ summary: 'Stop offering the scheme (kept, with its settings, until enabled again)' })
  @ApiOkResponse({ type: EidSchemeDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'built-in schemes cannot be disabled here' })
  disable(@Param('id') id: string, @Actor() actor: AdminActor): Promise<EidSchemeDto> {
    return this.schemes.setEnabled(id, false, actor);
  }

  @Post(':id/enable')
  @HttpCode(200)
  @AdminAccess('write')
  @IdParam
  @ApiOperation({ summary: 'Offer a disabled scheme again' })
  @ApiOkResponse({ type: EidSchemeDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'built-in schemes cannot be enabled here' })
  enable(@Param('id') id: string, @Actor() actor: AdminActor): Promise<EidSchemeDto> {
    return this.schemes.setEnabled(id, true, actor);
  }
}
