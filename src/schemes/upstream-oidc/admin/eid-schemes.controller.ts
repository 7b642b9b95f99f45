import { Body, Param } from '@nestjs/common';
import { Actor, type AdminActor } from '../../../admin/admin-actor.js';
import { AdminAction, AdminCreate, AdminList, AdminRead, AdminResource, AdminUpdate } from '../../../admin/admin-resource.js';
import { CreateEidSchemeDto, UpdateEidSchemeDto } from './dto/eid-scheme-requests.dto.js';
import { EidSchemeDto, EidSchemeListDto } from './dto/eid-scheme-response.dto.js';
import { EidSchemesService } from './eid-schemes.service.js';

const ID = { name: 'id', description: 'eID scheme id', example: 'bankid-no' };

@AdminResource('eid-schemes', 'eid-schemes')
export class EidSchemesController {
  constructor(private readonly schemes: EidSchemesService) {}

  @AdminCreate({
    summary: 'Add an upstream OpenID Connect scheme (enabled at once; merchants pick it through eid_schemes)',
    type: EidSchemeDto,
    conflict: 'the id is taken (by a built-in scheme or another)',
  })
  create(@Body() dto: CreateEidSchemeDto, @Actor() actor: AdminActor): Promise<EidSchemeDto> {
    return this.schemes.create(dto, actor);
  }

  @AdminList({ summary: 'List every scheme: built-in ones first, then upstream ones, oldest first', type: EidSchemeListDto })
  list(): Promise<EidSchemeListDto> {
    return this.schemes.list();
  }

  @AdminRead(ID, { summary: 'Read one scheme (never its client secret)', type: EidSchemeDto })
  get(@Param('id') id: string): Promise<EidSchemeDto> {
    return this.schemes.get(id);
  }

  @AdminUpdate(ID, {
    summary: 'Change the fields sent; logins started after the change use it',
    type: EidSchemeDto,
    conflict: 'built-in schemes cannot be changed',
  })
  update(@Param('id') id: string, @Body() dto: UpdateEidSchemeDto, @Actor() actor: AdminActor): Promise<EidSchemeDto> {
    return this.schemes.update(id, dto, actor);
  }

  @AdminAction(ID, 'disable', {
    summary: 'Stop offering the scheme (kept, with its settings, until enabled again)',
    type: EidSchemeDto,
    conflict: 'built-in schemes cannot be disabled here',
  })
  disable(@Param('id') id: string, @Actor() actor: AdminActor): Promise<EidSchemeDto> {
    return this.schemes.setEnabled(id, false, actor);
  }

  @AdminAction(ID, 'enable', { summary: 'Offer a disabled scheme again', type: EidSchemeDto, conflict: 'built-in schemes cannot be enabled here' })
  enable(@Param('id') id: string, @Actor() actor: AdminActor): Promise<EidSchemeDto> {
    return this.schemes.setEnabled(id, true, actor);
  }
}
