import { Controller, Get, Param, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { NotFoundError } from '../../common/errors/app-error.js';
import { sendImmutableImage } from '../../common/http/immutable-image.js';
import { MerchantLogosService } from './merchant-logos.service.js';

const SHA256_HEX = /^[0-9a-f]{64}$/;

/**
 * Merchant logos served from our origin, so a broker page never loads anything from elsewhere. The address
 * is the hash of the bytes: they can be cached for good. The type is the one found by magic bytes at
 * registration, and nosniff keeps a browser from reading the bytes as anything else.
 */
@ApiExcludeController()
@Controller('its/assets/logos')
export class LogoAssetsController {
  constructor(private readonly logos: MerchantLogosService) {}

  @Get(':sha256')
  async logo(@Param('sha256') sha256: string, @Res() res: Response): Promise<void> {
    const logo = SHA256_HEX.test(sha256) ? await this.logos.find(sha256) : null;
    if (!logo) throw new NotFoundError('logo');
    sendImmutableImage(res, logo.contentType, logo.bytes);
  }
}
