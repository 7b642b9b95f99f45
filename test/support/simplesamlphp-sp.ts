import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.js';
import { logTail, startPeerProcess, waitForPort, type PeerProcess } from './peer-process.js';
import { authsourcesPhp, configPhp } from './simplesamlphp-sp-config.js';

/** What .ci/run installs for it (php-cli runs PHP's built-in web server and metarefresh). */
export const SIMPLESAMLPHP_PACKAGES = ['simplesamlphp', 'php-cli', 'php-xml'] as const;

const SIMPLESAMLPHP = '/usr/share/simplesamlphp';
const METAREFRESH = `${SIMPLESAMLPHP}/modules/metarefresh/bin/metarefresh.php`;

/**
 * The application page behind SimpleSAMLphp: requireAuth() starts the SAML 1.1 sign-on, then the page shows
 * what the SP accepted as JSON. (SimpleSAMLphp's own status page cannot show a SAML 1.1 NameID: it expects a
 * SAML 2.0 NameID object and fails on the array the SAML 1 ACS stores.)
 */
const APP_PAGE = `<?php
require_once '${SIMPLESAMLPHP}/lib/_autoload.php';
$as = new \\SimpleSAML\\Auth\\Simple('default-sp');
$as->requireAuth();
header('Content-Type: application/json');
echo json_encode(['idp' => $as->getAuthData('saml:sp:IdP'), 'nameId' => $as->getAuthData('saml:sp:NameID'), 'attributes' => $as->getAttributes()]);
`;

/** PHP's built-in server: /app/ is the application, everything else SimpleSAMLphp's www/ (module.php/…). */
const ROUTER = `<?php
if (str_starts_with(parse_url($_SERVER['REQUEST_URI'], PHP_URL_PATH), '/app/')) { require __DIR__ . '/app.php'; return true; }
return false;
`;

export interface SimpleSamlPhpEndpoints {
  origin: string;
  entityId: string;
  /** The SAML 1.1 ACS of the auth source: …/module.php/saml/sp/saml1-acs.php/default-sp. */
  acs: string;
}

export interface SimpleSamlPhpOptions {
  idpEntityId: string;
  /** The certificate metarefresh checks our metadata's signature with. */
  idpCertificatePem: string;
  register(sp: SimpleSamlPhpEndpoints): Promise<void>;
}

export interface SimpleSamlPhpSp extends SimpleSamlPhpEndpoints {
  appUrl: string;
  /** metarefresh's output: empty when it refused our metadata. */
  metarefreshOutput: string;
  /** Whether metarefresh wrote our entity as a shib13-idp-remote. */
  knowsIdp: boolean;
  logs(): string;
  close(): Promise<void>;
}

/**
 * A stock SimpleSAMLphp SP in a fresh temporary configuration directory: metarefresh fetches our metadata
 * (checking its signature with our certificate) into flat files, then PHP's built-in web server serves it.
 */
export async function startSimpleSamlPhpSp(options: SimpleSamlPhpOptions): Promise<SimpleSamlPhpSp> {
  // A port found free can be taken by another process before PHP binds it: then again on another port.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(options);
    } catch (e) {
      if (attempt === 3) throw e;
    }
  }
}

async function startOnce(options: SimpleSamlPhpOptions): Promise<SimpleSamlPhpSp> {
  const port = await freePort();
  const origin = `http://localhost:${port}`;
  const endpoints: SimpleSamlPhpEndpoints = {
    origin,
    entityId: `${origin}/module.php/saml/sp/metadata.php/default-sp`,
    acs: `${origin}/module.php/saml/sp/saml1-acs.php/default-sp`,
  };
  await options.register(endpoints);
  const root = mkdtempSync(join(tmpdir(), 'simplesamlphp-sp-'));
  const dir = {
    config: join(root, 'config'),
    metadata: join(root, 'metadata'),
    log: join(root, 'log'),
    data: join(root, 'data'),
    temp: join(root, 'tmp'),
    cert: join(root, 'cert'),
    sessions: join(root, 'sessions'),
  };
  for (const d of Object.values(dir)) mkdirSync(d);
  writeFileSync(
    join(dir.config, 'config.php'),
    configPhp({
      baseUrl: `${origin}/`,
      dir,
      secretSalt: randomBytes(16).toString('hex'),
      adminPassword: randomBytes(16).toString('hex'),
      plainHttp: true,
      logLevel: 'DEBUG',
    }),
  );
  writeFileSync(join(dir.config, 'authsources.php'), authsourcesPhp({ entityId: endpoints.entityId, idpEntityId: options.idpEntityId }));
  writeFileSync(join(dir.cert, 'broker-saml.pem'), options.idpCertificatePem);
  writeFileSync(join(root, 'app.php'), APP_PAGE);
  writeFileSync(join(root, 'router.php'), ROUTER);
  const env = { SIMPLESAMLPHP_CONFIG_DIR: dir.config };

  // Asynchronously: the broker it fetches from runs in this process.
  const metarefreshOutput = await new Promise<string>((resolve) =>
    execFile(
      'php',
      [METAREFRESH, `--certificate=${join(dir.cert, 'broker-saml.pem')}`, `--out-dir=${dir.metadata}`, options.idpEntityId],
      { env: { ...process.env, ...env }, timeout: 60_000 },
      (error, stdout, stderr) => resolve(`${stdout}${stderr}${error ? `\n[exit ${error.code ?? error.signal}]` : ''}`),
    ),
  );
  const remote = join(dir.metadata, 'shib13-idp-remote.php');
  const knowsIdp = existsSync(remote) && readFileSync(remote, 'utf8').includes(options.idpEntityId);

  let server: PeerProcess | undefined;
  const logs = () =>
    [`--- metarefresh\n${metarefreshOutput}`, server ? `--- php -S\n${server.output()}` : '', logTail(join(dir.log, 'simplesamlphp.log'))].join('\n');
  const close = async () => {
    await server?.stop();
    rmSync(root, { recursive: true, force: true });
  };
  try {
    server = startPeerProcess('php -S', 'php', ['-S', `127.0.0.1:${port}`, '-t', `${SIMPLESAMLPHP}/www`, join(root, 'router.php')], env);
    await waitForPort(port, server, 30_000, logs);
    // The port answers; that it is this SimpleSAMLphp shows in its SP metadata naming this entity ID.
    const metadata = await fetch(endpoints.entityId).then(
      async (r) => `${r.status} ${await r.text()}`,
      (e: Error) => e.message,
    );
    if (!metadata.startsWith('200 ') || !metadata.includes(`entityID="${endpoints.entityId}"`))
      throw new Error(`the SP is not up: ${metadata.slice(0, 500)}\n${logs()}`);
  } catch (e) {
    await close();
    throw e;
  }
  return { ...endpoints, appUrl: `${origin}/app/`, metarefreshOutput, knowsIdp, logs, close };
}
