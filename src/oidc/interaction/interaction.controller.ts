import { Controller, Get, Param, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { InteractionService } from './interaction.service.js';

/**
 * The broker pages a browser walks through during an authorization request (HTML, not an API). Every
 * POST answers 303 to a GET (post/redirect/get), so a reload never resubmits a form.
 */
@ApiExcludeController()
@Controller('its/interaction/:uid')
export class InteractionController {
  constructor(private readonly interactions: InteractionService) {}

  @Get()
  show(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.interactions.show(req, res);
  }

  /** The choice of schemes again: the way back from a scheme's page. */
  @Get('choose')
  showChooser(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.interactions.showChooser(req, res);
  }

  /** A scheme's current page (where its POSTs redirect to, post/redirect/get). */
  @Get('eid/:scheme')
  showScheme(@Req() req: Request, @Res() res: Response, @Param('scheme') scheme: string): Promise<void> {
    return this.interactions.showScheme(req, res, scheme);
  }

  /** The credential offer after a passed verification, shown by GET after the POST that made it (post/redirect/get). */
  @Get('eid/:scheme/offer')
  showOffer(@Req() req: Request, @Res() res: Response, @Param('scheme') scheme: string): Promise<void> {
    return this.interactions.showOffer(req, res, scheme);
  }

  /** Back from a redirect scheme (sent here by GET /its/eid/callback); the state is checked and used up there. */
  @Get('eid/:scheme/return')
  resume(@Req() req: Request, @Res() res: Response, @Param('scheme') scheme: string): Promise<void> {
    return this.interactions.resume(req, res, scheme);
  }

  @Post('eid/:scheme/start')
  start(@Req() req: Request, @Res() res: Response, @Param('scheme') scheme: string): Promise<void> {
    return this.interactions.start(req, res, scheme);
  }

  @Post('eid/:scheme')
  input(@Req() req: Request, @Res() res: Response, @Param('scheme') scheme: string): Promise<void> {
    return this.interactions.input(req, res, scheme);
  }

  @Post('cancel')
  cancel(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.interactions.cancel(req, res);
  }
}
