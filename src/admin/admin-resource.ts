import { applyDecorators, Controller, Get, HttpCode, Patch, Post, type Type } from '@nestjs/common';
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
import { ErrorResponseDto } from '../common/http/error-response.dto.js';
import { AdminAccess } from './admin-actor.js';
import { SECURITY_SCHEMES } from '../common/http/security-schemes.js';

/**
 * The one shape of an admin API resource (merchants, eID schemes): `admin/v1/<path>`, a bearer admin token, the
 * support role read-only; create, list, read, change, disable and enable, each with its access and its answers.
 * A controller names its summaries and types; the routes, guards and error answers are the same everywhere.
 */
export function AdminResource(tag: string, path: string): ClassDecorator {
  return applyDecorators(
    ApiTags(tag),
    ApiBearerAuth(SECURITY_SCHEMES.ADMIN),
    ApiUnauthorizedResponse({ type: ErrorResponseDto, description: 'no or invalid admin token' }),
    ApiForbiddenResponse({ type: ErrorResponseDto, description: 'the support role is read-only' }),
    Controller(`admin/v1/${path}`),
  );
}

/** What one operation adds: its summary, its answer type, and a conflict it may answer (409). */
export interface AdminOperation {
  summary: string;
  type: Type<unknown>;
  conflict?: string;
}

/** The path parameter naming one item (`:<name>`), as Swagger shows it. */
export interface AdminItemParam {
  name: string;
  description: string;
  example?: string;
}

const conflict = (op: AdminOperation) => (op.conflict ? [ApiConflictResponse({ type: ErrorResponseDto, description: op.conflict })] : []);

export const AdminCreate = (op: AdminOperation) =>
  applyDecorators(
    Post(),
    AdminAccess('write'),
    ApiOperation({ summary: op.summary }),
    ApiCreatedResponse({ type: op.type }),
    ApiBadRequestResponse({ type: ErrorResponseDto, description: 'invalid fields, with a message per field' }),
    ...conflict(op),
  );

export const AdminList = (op: AdminOperation) =>
  applyDecorators(Get(), AdminAccess('read'), ApiOperation({ summary: op.summary }), ApiOkResponse({ type: op.type }));

export const AdminRead = (param: AdminItemParam, op: AdminOperation) =>
  applyDecorators(
    Get(`:${param.name}`),
    AdminAccess('read'),
    ApiParam(param),
    ApiOperation({ summary: op.summary }),
    ApiOkResponse({ type: op.type }),
    ApiNotFoundResponse({ type: ErrorResponseDto }),
  );

export const AdminUpdate = (param: AdminItemParam, op: AdminOperation) =>
  applyDecorators(
    Patch(`:${param.name}`),
    AdminAccess('write'),
    ApiParam(param),
    ApiOperation({ summary: op.summary }),
    ApiOkResponse({ type: op.type }),
    ApiBadRequestResponse({ type: ErrorResponseDto }),
    ApiNotFoundResponse({ type: ErrorResponseDto }),
    ...conflict(op),
  );

/** An action on one item (`POST :<name>/<action>`, answered 200): disable, enable, rotate a secret. */
export const AdminAction = (param: AdminItemParam, action: string, op: AdminOperation) =>
  applyDecorators(
    Post(`:${param.name}/${action}`),
    HttpCode(200),
    AdminAccess('write'),
    ApiParam(param),
    ApiOperation({ summary: op.summary }),
    ApiOkResponse({ type: op.type }),
    ApiNotFoundResponse({ type: ErrorResponseDto }),
    ...conflict(op),
  );
