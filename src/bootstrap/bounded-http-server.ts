import { ExpressAdapter } from '@nestjs/platform-express';
import { createServer } from 'node:http';
import type { OpsConfig } from '../config/ops-config.js';

/** How often Node looks for requests past their timeouts (its default, 30 s, would let one overstay by that much). */
const CHECK_EVERY_MS = 1000;

/**
 * Express under Nest, on an HTTP server that bounds what a slow client may hold: all headers within
 * HTTP_HEADERS_TIMEOUT_SECONDS, the whole request within HTTP_REQUEST_TIMEOUT_SECONDS (else Node answers 408 and
 * closes), idle keep-alive connections closed after HTTP_KEEP_ALIVE_TIMEOUT_SECONDS. Node's defaults (a request may
 * take 300 s, checked every 30 s) let a client trickling a body hold a connection for minutes.
 *
 * The keep-alive time stays longer than the usual 60 s of load balancers and clients: a server that closes an idle
 * connection first does so at the moment a client may be sending the next request on it, which then fails.
 */
export class BoundedExpressAdapter extends ExpressAdapter {
  constructor(private readonly limits: OpsConfig['http']) {
    super();
  }

  override initHttpServer(options: Parameters<ExpressAdapter['initHttpServer']>[0]): void {
    // Nest's own server options (TLS, 503 on closing, forced closes) are not used: TLS ends at the proxy, and the
    // graceful shutdown (src/ops) drains connections itself.
    if (options?.httpsOptions || options?.return503OnClosing || options?.forceCloseConnections) throw new Error('unsupported HTTP server option');
    const server = createServer(
      {
        requestTimeout: this.limits.requestTimeoutSeconds * 1000,
        headersTimeout: Math.min(this.limits.headersTimeoutSeconds, this.limits.requestTimeoutSeconds) * 1000,
        keepAliveTimeout: this.limits.keepAliveTimeoutSeconds * 1000,
        connectionsCheckingInterval: CHECK_EVERY_MS,
      },
      this.getInstance(),
    );
    this.setHttpServer(server);
  }
}
