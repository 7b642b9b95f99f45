import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { OidcModule } from '../oidc/oidc.module.js';
import { HealthController } from './health/health.controller.js';
import { ReadinessService } from './health/readiness.service.js';
import { HttpObserver } from './http-observer.js';
import { ObservedSchemes } from './observed-schemes.js';
import { MetricsController } from './metrics/metrics.controller.js';
import { MetricsServer } from './metrics/metrics-server.js';
import { OpsMetrics } from './metrics/ops-metrics.service.js';
import { UnfinishedBodies } from './per-client/unfinished-bodies.js';
import { RateLimiter } from './rate-limit/rate-limiter.service.js';
import { GracefulShutdown } from './shutdown/graceful-shutdown.service.js';

/** Running the service in production (issue 15): metrics, readiness, rate limits, graceful shutdown. README, Operations. */
@Module({
  imports: [OidcModule, DiscoveryModule],
  controllers: [MetricsController, HealthController],
  providers: [ObservedSchemes, OpsMetrics, ReadinessService, HttpObserver, MetricsServer, RateLimiter, UnfinishedBodies, GracefulShutdown],
  exports: [RateLimiter, UnfinishedBodies, ReadinessService, GracefulShutdown],
})
export class OpsModule {}
