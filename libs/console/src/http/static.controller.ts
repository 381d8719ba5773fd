import { Controller, Get, Param, Res, UseGuards } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ConsoleAssetsService, type ConsoleAsset } from '../assets/console-assets.service';
import { ConsoleGuard } from './console.guard';

/** The console's page and its hashed asset files (cached for a year: their names change with their content). */
@Controller('console')
@UseGuards(ConsoleGuard)
export class ConsoleStaticController {
  constructor(private readonly assets: ConsoleAssetsService) {}

  @Get()
  async index(@Res() reply: FastifyReply): Promise<void> {
    await send(reply, this.assets.indexPage(), 'no-cache', this.assets.unavailableReason());
  }

  @Get('assets/:name')
  async asset(@Param('name') name: string, @Res() reply: FastifyReply): Promise<void> {
    const asset = this.assets.asset(name);
    if (!asset) {
      await reply.code(404).header('Content-Type', 'application/json; charset=utf-8').send({ message: `No such console file: ${name}` });
      return;
    }
    await send(reply, asset, 'public, max-age=31536000, immutable', '');
  }
}

async function send(reply: FastifyReply, asset: ConsoleAsset | undefined, cacheControl: string, unavailable: string): Promise<void> {
  if (!asset) {
    await reply.code(503).header('Content-Type', 'application/json; charset=utf-8').send({ message: unavailable });
    return;
  }
  await reply.header('Content-Type', asset.contentType).header('Cache-Control', cacheControl).send(asset.body);
}
