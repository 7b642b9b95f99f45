import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ErrorResponseDto } from '../../../common/http/error-response.dto.js';
import { SpecimenDocumentDto, SpecimenRequestDto } from '../app-api/dto/app-api.dto.js';
import { SpecimenDocumentsService } from './specimen-documents.service.js';

@ApiTags('verifier app')
@Controller('app/v1/specimen-documents')
export class SpecimenDocumentsController {
  constructor(private readonly specimens: SpecimenDocumentsService) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({ summary: 'customer-test only: a specimen chip for the test app, signed by this environment’s specimen CSCA' })
  @ApiOkResponse({ type: SpecimenDocumentDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'production has no specimen documents' })
  issue(@Body() dto: SpecimenRequestDto): Promise<SpecimenDocumentDto> {
    return this.specimens.issue(dto);
  }
}
