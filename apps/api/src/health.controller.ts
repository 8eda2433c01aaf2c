import { Controller, Get } from '@nestjs/common';

import { Public } from '@app/platform';

@Controller('api/v1/health')
export class HealthController {
  @Get()
  @Public()
  health(): { status: 'ok' } {
    return { status: 'ok' };
  }
}
