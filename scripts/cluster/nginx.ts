/** nginx as the cluster's round-robin reverse proxy: installed from Debian if missing, run in the foreground from a temp folder. */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const NGINX = '/usr/sbin/nginx';

/** Installs Debian's nginx package when it is not there (needs root, as apt-get does). */
export function ensureNginx(log: (line: string) => void): string {
  if (existsSync(NGINX)) return NGINX;
  log('nginx is not installed: apt-get install -y --no-install-recommends nginx');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  let install = spawnSync('apt-get', ['install', '-y', '--no-install-recommends', 'nginx'], { stdio: 'inherit', env });
  if (install.status !== 0) {
    // A fresh machine may not have the package lists yet.
    spawnSync('apt-get', ['update'], { stdio: 'inherit', env });
    install = spawnSync('apt-get', ['install', '-y', '--no-install-recommends', 'nginx'], { stdio: 'inherit', env });
  }
  if (install.status !== 0 || !existsSync(NGINX)) throw new Error('could not install nginx (apt-get install nginx failed; run it as root)');
  // The package starts the system's nginx on port 80; ours runs on its own, so that one is left as installed.
  return NGINX;
}

/**
 * The configuration: one worker, no sticky sessions (plain round robin over the instances), kept-alive upstream
 * connections, and the X-Forwarded-* headers the service reads with TRUST_PROXY=true. Every path nginx would
 * write (pid, logs, temp files) is inside `dir`, never the system's.
 */
export function nginxConfig(dir: string, listen: { host: string; port: number }, upstreams: number[]): string {
  const temp = (name: string) => join(dir, name);
  return `daemon off;
master_process on;
worker_processes 1;
pid ${temp('nginx.pid')};
error_log ${temp('error.log')} warn;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path ${temp('client_body')};
  proxy_temp_path ${temp('proxy')};
  fastcgi_temp_path ${temp('fastcgi')};
  uwsgi_temp_path ${temp('uwsgi')};
  scgi_temp_path ${temp('scgi')};
  # The app API carries chip files and face frames (up to 8 MB per request).
  client_max_body_size 10m;
  upstream broker {
${upstreams.map((port) => `    server 127.0.0.1:${port} max_fails=1 fail_timeout=2s;`).join('\n')}
    keepalive 64;
  }
  server {
    listen ${listen.host}:${listen.port};
    location / {
      proxy_pass http://broker;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-Host $http_host;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      # Another instance is tried only when one cannot be reached (never a POST that reached one).
      proxy_next_upstream error timeout;
      proxy_read_timeout 60s;
    }
  }
}
`;
}

/** Writes the configuration into `dir` and starts nginx on it as a foreground child process. */
export function startNginx(binary: string, dir: string, config: string): ChildProcess {
  for (const sub of ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(join(dir, sub), { recursive: true });
  const file = join(dir, 'nginx.conf');
  writeFileSync(file, config);
  // -e: the log of start-up errors, before the configuration is read (otherwise the system's path).
  const test = spawnSync(binary, ['-t', '-q', '-p', dir, '-e', join(dir, 'error.log'), '-c', file], { encoding: 'utf8' });
  if (test.status !== 0) throw new Error(`nginx refused its configuration: ${test.stderr}`);
  return spawn(binary, ['-p', dir, '-e', join(dir, 'error.log'), '-c', file], { stdio: ['ignore', 'inherit', 'inherit'] });
}
