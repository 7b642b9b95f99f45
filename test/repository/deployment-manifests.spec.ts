import { execFileSync, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ConfigError } from '../../src/config/app-config.js';
import { loadServiceConfig } from '../../src/bootstrap/scheme-manifests.js';
import { SERVICE_NODE_FLAGS } from '../../scripts/service-node-flags.js';
import { describeWithPackages } from '../support/peer-process.js';

/**
 * What an operator deploys (docs/deployment.md): the Dockerfile, compose.yaml and deploy/kubernetes. yamllint (Debian)
 * judges the YAML; the manifests are read with python3-yaml (yamllint's own parser, installed with it) and held to
 * what the service does: its health paths, its shutdown time, where it writes, the variables it reads.
 */
const K8S = 'deploy/kubernetes';
const dockerfile = readFileSync('Dockerfile', 'utf8');
const envExample = readFileSync('.env.example', 'utf8');

type Doc = Record<string, any>;
function yamlDocuments(file: string): Doc[] {
  const script = 'import sys, yaml, json; print(json.dumps(list(yaml.safe_load_all(open(sys.argv[1])))))';
  return (JSON.parse(execFileSync('python3', ['-c', script, file], { encoding: 'utf8' })) as Doc[]).filter(Boolean);
}

/** The value of a Dockerfile `ENV`/`ARG` name (first `name=value`). */
function dockerfileValue(name: string): string {
  const match = new RegExp(`\\b${name}=(\\S+)`).exec(dockerfile);
  if (!match) throw new Error(`${name} not in the Dockerfile`);
  return match[1].replace(/\\$/, '').trim();
}

/** A variable .env.example documents (set or commented out): the service reads it. */
const documented = (name: string) => new RegExp(`^#? ?${name}=`, 'm').test(envExample);

describe('the Dockerfile', () => {
  it('starts dist/src/main.js with the V8 flags of every other start (scripts/service-node-flags.ts), under tini', () => {
    const cmd = JSON.parse(/^CMD (\[.*\])$/m.exec(dockerfile)![1]) as string[];
    expect(cmd).toEqual(['node', ...SERVICE_NODE_FLAGS, 'dist/src/main.js']);
    expect(JSON.parse(/^ENTRYPOINT (\[.*\])$/m.exec(dockerfile)![1])).toEqual(['/usr/bin/tini', '--']);
  });

  it('runs as a fixed non-root uid and checks /health/live on PORT', () => {
    expect(/^USER \$\{BROKER_UID\}:\$\{BROKER_UID\}$/m.test(dockerfile)).toBe(true);
    expect(Number(dockerfileValue('BROKER_UID'))).toBeGreaterThan(0);
    expect(dockerfile).toMatch(/HEALTHCHECK [^\n]*\\\n\s+CMD \["node", "-e", "fetch\(`http:\/\/127\.0\.0\.1:\$\{process\.env\.PORT \|\| 3000\}\/health\/live`/);
    expect(/^EXPOSE (\d+)$/m.exec(dockerfile)![1]).toBe(dockerfileValue('PORT'));
  });
});

describeWithPackages(['yamllint'], 'deployment manifests (compose.yaml, deploy/kubernetes)', () => {
  const manifests = readdirSync(K8S).filter((f) => f.endsWith('.yaml'));
  const k8s = manifests.flatMap((f) => yamlDocuments(join(K8S, f)));
  const kind = (k: string) => k8s.find((d) => d.kind === k)!;
  const deployment = kind('Deployment');
  const pod = deployment.spec.template.spec;
  const container = pod.containers[0];
  const configMap = k8s.find((d) => d.kind === 'ConfigMap' && d.metadata.name === 'identity-broker')!;
  const secret = kind('Secret');

  it('pass yamllint (.yamllint)', () => {
    const run = spawnSync('yamllint', ['--strict', 'compose.yaml', K8S, '.yamllint'], { encoding: 'utf8' });
    expect({ status: run.status, output: `${run.stdout}${run.stderr}`.trim() }).toEqual({ status: 0, output: '' });
  });

  it('are all in the kustomization', () => {
    const kustomization = yamlDocuments(join(K8S, 'kustomization.yaml'))[0];
    expect([...kustomization.resources].sort()).toEqual(manifests.filter((f) => f !== 'kustomization.yaml').sort());
  });

  it('probe readiness on /health/ready and liveness and start-up on /health/live, on the port the service listens on', () => {
    expect(container.readinessProbe.httpGet.path).toBe('/health/ready');
    expect(container.livenessProbe.httpGet.path).toBe('/health/live');
    expect(container.startupProbe.httpGet.path).toBe('/health/live');
    const http = container.ports.find((p: Doc) => p.name === 'http');
    expect(String(http.containerPort)).toBe(configMap.data.PORT);
    expect(container.readinessProbe.httpGet.port).toBe('http');
    const service = kind('Service');
    expect(service.spec.ports[0].targetPort).toBe('http');
    expect(service.spec.selector).toEqual(deployment.spec.template.metadata.labels);
  });

  it('give the pod more time than the preStop sleep and the service’s own shutdown take (SHUTDOWN_GRACE_SECONDS)', () => {
    const [command, seconds] = container.lifecycle.preStop.exec.command as [string, string];
    expect(command).toBe('sleep');
    const grace = Number(configMap.data.SHUTDOWN_GRACE_SECONDS);
    expect(grace).toBeGreaterThan(0);
    expect(pod.terminationGracePeriodSeconds).toBeGreaterThanOrEqual(Number(seconds) + grace + 1);
  });

  it('run as the image’s user on a read-only root with a writable volume wherever the service writes', () => {
    expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: Number(dockerfileValue('BROKER_UID')) });
    expect(container.securityContext).toMatchObject({ readOnlyRootFilesystem: true, allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } });
    const mounted = (container.volumeMounts as Doc[]).map((m) => m.mountPath);
    expect(mounted).toEqual(expect.arrayContaining([dockerfileValue('DATA_DIR'), dirname(dockerfileValue('NODE_COMPILE_CACHE')), '/tmp']));
    const volume = (m: Doc) => (pod.volumes as Doc[]).find((v) => v.name === m.name)!;
    for (const m of (container.volumeMounts as Doc[]).filter((m) => !m.readOnly)) expect(volume(m).emptyDir).toBeDefined();
    // The one read-only mount: the document verifier's trust anchors, which production requires.
    const trust = (container.volumeMounts as Doc[]).filter((m) => m.readOnly);
    expect(trust.map((m) => [m.mountPath, volume(m).configMap.name])).toEqual([[configMap.data.TRUST_CSCA_PATHS, 'identity-broker-trust']]);
    expect(k8s.some((d) => d.kind === 'ConfigMap' && d.metadata.name === 'identity-broker-trust')).toBe(true);
  });

  it('set only variables the service reads; the Secret has every secret production requires, each a placeholder', () => {
    const names = [...Object.keys(configMap.data), ...Object.keys(secret.stringData)];
    expect(names.filter((n) => !documented(n))).toEqual([]);
    expect(Object.keys(secret.stringData)).toEqual(
      expect.arrayContaining(['DATABASE_URL', 'DATA_ENCRYPTION_KEY', 'COOKIE_KEYS', 'SUBJECT_SECRET', 'PAIRWISE_SECRET']),
    );
    for (const value of Object.values(secret.stringData)) expect(value).toMatch(/^<.+>$/);
  });

  it('are a valid production configuration once the placeholders are filled, and refused as they are', () => {
    const env = { ...configMap.data, ...secret.stringData } as Record<string, string>;
    // Each placeholder fails its own variable's check: a template applied unfilled does not start.
    const refused = (() => {
      try {
        loadServiceConfig(env);
      } catch (e) {
        if (e instanceof ConfigError) return e.message;
        throw e;
      }
      return 'accepted';
    })();
    for (const name of Object.keys(secret.stringData)) expect(refused).toContain(`- ${name}:`);
    const filled = {
      ...env,
      DATABASE_URL: 'postgresql://broker:pw@db:5432/broker',
      REDIS_URL: 'redis://redis:6379',
      DATA_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
      COOKIE_KEYS: 'c'.repeat(44),
      SUBJECT_SECRET: 's'.repeat(44),
      PAIRWISE_SECRET: 'p'.repeat(44),
      ADMIN_API_TOKEN: 'a'.repeat(44),
    };
    const config = loadServiceConfig(filled);
    expect(config.env).toBe('production');
    expect(config.ops.shutdownGraceSeconds).toBe(Number(configMap.data.SHUTDOWN_GRACE_SECONDS));
  });

  it('compose: the service waits for healthy PostgreSQL and Redis, is stopped after its grace time, writes where the image lets it', () => {
    const compose = yamlDocuments('compose.yaml')[0];
    const broker = compose.services.broker;
    expect(broker.depends_on).toEqual({ postgres: { condition: 'service_healthy' }, redis: { condition: 'service_healthy' } });
    expect(compose.services.postgres.healthcheck.test).toContain('pg_isready');
    expect(compose.services.redis.healthcheck.test).toContain('ping');
    expect(Number(/^(\d+)s$/.exec(broker.stop_grace_period)![1])).toBeGreaterThan(Number(/^SHUTDOWN_GRACE_SECONDS=(\d+)$/m.exec(envExample)![1]));
    expect(Object.keys(broker.environment).filter((n) => !documented(n))).toEqual([]);
    expect(broker.environment.DATA_DIR).toBe(dockerfileValue('DATA_DIR'));
    expect(broker.read_only).toBe(true);
    expect(broker.tmpfs.some((t: string) => t.startsWith(`${dirname(dockerfileValue('NODE_COMPILE_CACHE'))}:`))).toBe(true);
  });
});
