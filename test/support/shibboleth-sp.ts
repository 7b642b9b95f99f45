import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newKeyAndCertificate } from '../../src/common/keys/self-signed.js';
import { freePort } from './free-port.js';
import { logTail, startPeerProcess, waitForPort, type PeerProcess } from './peer-process.js';
import { attributeMapXml, loggerConfig, protectedLocationConf, shibboleth2Xml } from './shibboleth-sp-config.js';

/** What .ci/run installs for it (Apache with mod_php serves the page that shows what the SP exported). */
export const SHIBBOLETH_SP_PACKAGES = ['apache2', 'libapache2-mod-shib', 'libapache2-mod-php'] as const;

const MODULES = '/usr/lib/apache2/modules';
const SYSTEM_CONFIG_DIR = '/etc/shibboleth';

/**
 * The protected page: what mod_shib exported to the application (environment variables, as PHP's $_SERVER
 * sees them), as JSON. Only the session's own variables and the mapped attributes, nothing of the server.
 */
const ATTRIBUTES_PAGE = `<?php
header('Content-Type: application/json');
$out = [];
foreach ($_SERVER as $k => $v) {
  if (in_array($k, ['REMOTE_USER', 'AUTH_TYPE'], true) || str_starts_with($k, 'Shib-') || str_starts_with($k, 'SP_')) { $out[$k] = $v; continue; }
  if (in_array($k, json_decode(file_get_contents(__DIR__ . '/names.json'), true), true)) $out[$k] = $v;
}
echo json_encode($out);
`;

export interface ShibbolethSpOptions {
  /** Our entity ID and metadata URL ({BASE_URL}/saml/metadata). */
  idpEntityId: string;
  /** Our signing certificate, as published in the metadata (pinned by the SignatureMetadataFilter). */
  idpCertificatePem: string;
  /**
   * Registers the SP as a merchant once its addresses are known (they depend on the ports) and answers the
   * merchant's credentials, which the SP sends on artifact resolution.
   */
  register(sp: ShibbolethSpEndpoints): Promise<{ clientId: string; clientSecret: string }>;
  /** The attribute names the page may show (the mapped ids). */
  attributeIds: readonly string[];
  /** Whether the SP may resolve artifacts over plain http (default true: the broker under test has no TLS). */
  backChannelOverHttp?: boolean;
}

export interface ShibbolethSpEndpoints {
  /** http://localhost:<port>: the SP's own origin. */
  origin: string;
  entityId: string;
  /** The Browser/POST and Browser/Artifact ACS the SP derives from protocols.xml (indexes 1 and 2). */
  postAcs: string;
  artifactAcs: string;
}

export interface ShibbolethSp extends ShibbolethSpEndpoints {
  /** A page behind `requireSession`: answers the exported attributes as JSON. */
  protectedUrl: string;
  /** shibd's and Apache's logs, for a failure report. */
  logs(): string;
  close(): Promise<void>;
}

/**
 * A stock Shibboleth SP 3 (shibd in the foreground and Apache with mod_shib, one process each) on free
 * ports, configured in a fresh temporary directory. The entity ID is derived from the port, as an SP's is.
 * A port found free can be taken by another process before ours binds it (other suites run on this machine):
 * then it starts again on other ports, at most three times.
 */
export async function startShibbolethSp(options: ShibbolethSpOptions): Promise<ShibbolethSp> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(options);
    } catch (e) {
      if (attempt === 3) throw e;
    }
  }
}

async function startOnce(options: ShibbolethSpOptions): Promise<ShibbolethSp> {
  const [httpPort, listenerPort] = await twoFreePorts();
  const origin = `http://localhost:${httpPort}`;
  const endpoints: ShibbolethSpEndpoints = {
    origin,
    entityId: `${origin}/shibboleth`,
    postAcs: `${origin}/Shibboleth.sso/SAML/POST`,
    artifactAcs: `${origin}/Shibboleth.sso/SAML/Artifact`,
  };
  const artifactCredentials = await options.register(endpoints);
  const dir = mkdtempSync(join(tmpdir(), 'shibboleth-sp-'));
  const files = {
    backingMetadata: join(dir, 'broker-metadata.xml'),
    idpCertificate: join(dir, 'broker-saml.pem'),
    attributeMap: join(dir, 'attribute-map.xml'),
    spKey: join(dir, 'sp-key.pem'),
    spCertificate: join(dir, 'sp-cert.pem'),
    shibdLogger: join(dir, 'shibd.logger'),
    nativeLogger: join(dir, 'native.logger'),
  };
  const logs = { shibd: join(dir, 'shibd.log'), native: join(dir, 'native.log'), apache: join(dir, 'apache-error.log') };
  const sp = await newKeyAndCertificate(`CN=localhost`, 1);
  writeFileSync(files.spKey, sp.privateKeyPem);
  writeFileSync(files.spCertificate, sp.certificatePem);
  writeFileSync(files.idpCertificate, options.idpCertificatePem);
  writeFileSync(files.attributeMap, attributeMapXml());
  writeFileSync(files.shibdLogger, loggerConfig(logs.shibd));
  writeFileSync(files.nativeLogger, loggerConfig(logs.native));
  writeFileSync(
    join(dir, 'shibboleth2.xml'),
    shibboleth2Xml({
      entityId: endpoints.entityId,
      idpEntityId: options.idpEntityId,
      idpMetadataUrl: options.idpEntityId,
      files,
      artifactCredentials,
      listenerPort,
      systemConfigDir: SYSTEM_CONFIG_DIR,
      plainHttp: true,
      backChannelOverHttp: options.backChannelOverHttp ?? true,
    }),
  );
  const www = join(dir, 'www', 'secure');
  mkdirSync(www, { recursive: true });
  writeFileSync(join(www, 'index.php'), ATTRIBUTES_PAGE);
  writeFileSync(join(www, 'names.json'), JSON.stringify(options.attributeIds));
  mkdirSync(join(dir, 'run'));
  writeFileSync(join(dir, 'httpd.conf'), httpdConf(dir, httpPort));
  // As root, Apache's child runs as www-data: it reads the configuration and writes mod_shib's log.
  chmodSync(dir, 0o755);
  writeFileSync(logs.native, '');
  chmodSync(logs.native, 0o666);

  const processes: PeerProcess[] = [];
  const report = () =>
    [...processes.map((p) => `--- ${p.name} output\n${p.output()}`), logTail(logs.shibd), logTail(logs.native), logTail(logs.apache)].join('\n');
  const close = async () => {
    for (const p of processes.reverse()) await p.stop();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const shibd = startPeerProcess('shibd', '/usr/sbin/shibd', ['-F', '-f', '-c', join(dir, 'shibboleth2.xml'), '-p', join(dir, 'shibd.pid'), '-w', '30']);
    processes.push(shibd);
    await waitForPort(listenerPort, shibd, 60_000, report);
    const apache = startPeerProcess('apache2', '/usr/sbin/apache2', ['-X', '-f', join(dir, 'httpd.conf')], { APACHE_RUN_DIR: join(dir, 'run') });
    processes.push(apache);
    await waitForPort(httpPort, apache, 30_000, report);
    // Both ports answer; that they are ours, and talk to each other, shows in mod_shib's status handler.
    const status = await fetch(`${origin}/Shibboleth.sso/Status`).then(
      async (r) => `${r.status} ${await r.text()}`,
      (e: Error) => e.message,
    );
    if (!status.startsWith('200 ') || !status.includes('<OK/>')) throw new Error(`the SP is not up: ${status.slice(0, 500)}\n${report()}`);
  } catch (e) {
    await close();
    throw e;
  }
  return {
    ...endpoints,
    protectedUrl: `${origin}/secure/index.php`,
    logs: report,
    close,
  };
}

/** Apache's and shibd's ports: free a moment ago, and not the same one twice. */
async function twoFreePorts(): Promise<[number, number]> {
  const first = await freePort();
  let second = await freePort();
  while (second === first) second = await freePort();
  return [first, second];
}

function phpModule(): string {
  const so = readdirSync(MODULES).find((f) => /^libphp[\d.]*\.so$/.test(f));
  if (!so) throw new Error(`no libphp*.so in ${MODULES} (apt-get install libapache2-mod-php)`);
  return join(MODULES, so);
}

/** One Apache in the foreground (-X), prefork as mod_php wants, mod_shib reading our shibboleth2.xml. */
function httpdConf(dir: string, port: number): string {
  const asRoot = process.getuid?.() === 0;
  return `ServerName localhost
Listen 127.0.0.1:${port}
PidFile ${dir}/httpd.pid
DefaultRuntimeDir ${dir}/run
ErrorLog ${dir}/apache-error.log
LogLevel warn
KeepAlive Off
LoadModule mpm_prefork_module ${MODULES}/mod_mpm_prefork.so
LoadModule authn_core_module ${MODULES}/mod_authn_core.so
LoadModule authz_core_module ${MODULES}/mod_authz_core.so
LoadModule php_module ${phpModule()}
LoadModule mod_shib ${MODULES}/mod_shib.so
${asRoot ? 'User www-data\nGroup www-data' : ''}
ShibConfig ${dir}/shibboleth2.xml
ShibCompatValidUser Off
DocumentRoot ${dir}/www
<Directory ${dir}/www>
  Require all granted
</Directory>
${protectedLocationConf('/secure')}<FilesMatch "\\.php$">
  SetHandler application/x-httpd-php
</FilesMatch>
`;
}
