/**
 * A stock nginx (Debian's nginx-light) as the TLS-terminating proxy in front of the service: it asks for a
 * client certificate, verifies that the client holds its key (the TLS handshake), and passes the certificate
 * on in a header, exactly as an operator's nginx would. `.ci/run` installs it; without it the tests that need
 * it skip, except under CI=true, where they fail.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'node:net';
import { freePort } from './free-port.js';
import { itWhen } from './when-available.js';

export const nginxInstalled = spawnSync('sh', ['-c', 'command -v nginx || test -x /usr/sbin/nginx']).status === 0;
const NGINX = spawnSync('sh', ['-c', 'command -v nginx']).stdout?.toString().trim() || '/usr/sbin/nginx';

export interface NginxProxyOptions {
  /** The service behind the proxy (http://127.0.0.1:port). */
  upstream: string;
  /** The proxy's own TLS server key and certificate (PEM). */
  serverKeyPem: string;
  serverCertificatePem: string;
  /** Header the verified client certificate goes in (the service's CLIENT_CERT_HEADER). */
  certificateHeader: string;
  /** Address the proxy connects to the service from (a loopback alias, to tell it apart from direct clients). */
  bindAddress: string;
  /** The proxy's port (chosen before the service starts, when the service's BASE_URL is the proxy); default: a free one. */
  port?: number;
}

export interface NginxProxy {
  /** https://127.0.0.1:port */
  origin: string;
  errorLog(): string;
  close(): Promise<void>;
}

export async function startNginxProxy(options: NginxProxyOptions): Promise<NginxProxy> {
  const dir = mkdtempSync(join(tmpdir(), 'nginx-proxy-'));
  const port = options.port ?? (await freePort());
  writeFileSync(join(dir, 'server.key'), options.serverKeyPem);
  writeFileSync(join(dir, 'server.crt'), options.serverCertificatePem);
  // optional_no_ca: merchants' certificates are self-signed (as in SAML metadata); the service pins them.
  writeFileSync(
    join(dir, 'nginx.conf'),
    `worker_processes 1;
daemon off;
master_process off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 64; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  server {
    listen 127.0.0.1:${port} ssl;
    ssl_certificate ${dir}/server.crt;
    ssl_certificate_key ${dir}/server.key;
    ssl_verify_client optional_no_ca;
    location / {
      proxy_pass ${options.upstream};
      proxy_bind ${options.bindAddress};
      # Overwritten on every request: a client's own header of that name never reaches the service.
      proxy_set_header ${options.certificateHeader} $ssl_client_escaped_cert;
      # The public origin, for a service whose BASE_URL is this proxy (TRUST_PROXY=true); ignored otherwise.
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-Proto $scheme;
    }
  }
}
`,
  );
  const child: ChildProcess = spawn(NGINX, ['-p', dir, '-c', join(dir, 'nginx.conf')], { stdio: 'ignore' });
  const errorLog = () => {
    try {
      return readFileSync(join(dir, 'error.log'), 'utf8');
    } catch {
      return '';
    }
  };
  await listening(port, child, errorLog);
  return {
    origin: `https://127.0.0.1:${port}`,
    errorLog,
    close: async () => {
      if (child.exitCode === null) await new Promise<void>((resolve) => child.once('exit', () => resolve()).kill('SIGTERM'));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Waits until the port accepts connections (nginx has no readiness signal of its own in the foreground). */
async function listening(port: number, child: ChildProcess, errorLog: () => string): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    if (child.exitCode !== null) throw new Error(`nginx exited (${child.exitCode}): ${errorLog()}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`nginx did not listen on ${port}: ${errorLog()}`);
}

/** `it` when nginx is installed; skipped otherwise, failing under CI=true. */
export function itWithNginx(name: string, fn: () => Promise<void>, timeout?: number): void {
  itWhen({ available: nginxInstalled, missing: 'nginx not installed', install: 'apt-get install nginx-light' })(name, fn, timeout);
}
