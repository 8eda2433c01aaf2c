// The OpenAPI document and the docs page. Imported by the HTTP app only: it discovers the routes of
// every controller the app has, so it must sit in the same application.
import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';

import { OpenApiController } from './openapi.controller';
import { OpenApiService } from './openapi.service';
import { RouteCatalog } from './route-catalog';

@Module({
  imports: [DiscoveryModule],
  controllers: [OpenApiController],
  providers: [RouteCatalog, OpenApiService],
  exports: [OpenApiService, RouteCatalog],
})
export class OpenApiModule {}
