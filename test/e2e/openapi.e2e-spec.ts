import { startTestApp, type TestApp } from '../support/test-app.js';

type Schema = { $ref?: string; allOf?: Schema[]; items?: Schema; properties?: Record<string, Schema>; example?: unknown; examples?: unknown };
interface Operation {
  security?: Record<string, string[]>[];
  parameters?: { name: string; example?: unknown; schema?: Schema }[];
}

/** The OpenAPI document is usable from Swagger UI: every scheme declared, every field with an example. */
describe('OpenAPI document (/admin/docs/openapi.json)', () => {
  let t: TestApp;
  let doc: {
    components: { securitySchemes: Record<string, { type: string; scheme?: string }>; schemas: Record<string, Schema> };
    paths: Record<string, Record<string, Operation>>;
  };
  const operations = () =>
    Object.entries(doc.paths).flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ name: `${method.toUpperCase()} ${path}`, op })));

  beforeAll(async () => {
    t = await startTestApp();
    doc = (await (await fetch(`${t.baseUrl}/admin/docs/openapi.json`)).json()) as typeof doc;
  });
  afterAll(() => t?.close());

  it('declares the admin token, merchant Basic and app session schemes', () => {
    const schemes = Object.values(doc.components.securitySchemes).map((s) => `${s.type}/${s.scheme}`);
    expect(schemes).toEqual(expect.arrayContaining(['http/bearer', 'http/basic']));
    expect(Object.keys(doc.components.securitySchemes)).toHaveLength(3);
    const named = (path: string, method: string) => doc.paths[path][method].security?.flatMap((r) => Object.keys(r));
    expect(doc.components.securitySchemes[named('/oidc/token', 'delete')![0]].scheme).toBe('basic');
    expect(doc.components.securitySchemes[named('/app/v1/session', 'get')![0]].scheme).toBe('bearer');
    expect(named('/app/v1/session', 'get')).not.toEqual(named('/admin/v1/merchants', 'get'));
  });

  it("lists the admin token first in Swagger UI's Authorize dialog, each scheme named for who uses it", () => {
    // Swagger UI lists the schemes in the document's order; a token pasted under the wrong one answers 401.
    expect(Object.keys(doc.components.securitySchemes)).toEqual(['admin-api-token', 'merchant-client-credentials', 'verifier-app-session']);
    const described = Object.values(doc.components.securitySchemes).map((s) => (s as { description?: string }).description?.split(':')[0]);
    expect(described).toEqual(['Operators', 'Merchants', 'The verifier app']);
    const named = (path: string, method: string) => doc.paths[path][method].security?.flatMap((r) => Object.keys(r));
    expect(named('/admin/v1/merchants', 'get')).toEqual(['admin-api-token']);
    expect(named('/app/v1/session/credential-offer', 'post')).toEqual(['verifier-app-session']);
  });

  it("names only declared schemes in every operation's security", () => {
    const undeclared = operations().flatMap(({ name, op }) =>
      (op.security ?? [])
        .flatMap((r) => Object.keys(r))
        .filter((s) => !(s in doc.components.securitySchemes))
        .map((s) => `${name}: ${s}`),
    );
    expect(undeclared).toEqual([]);
  });

  it('gives every schema property and every parameter an example', () => {
    const missing: string[] = [];
    const isReference = (p: Schema) => Boolean(p.$ref || p.allOf?.length === 1 || p.items?.$ref);
    const walk = (name: string, schema: Schema) => {
      for (const [field, p] of Object.entries(schema.properties ?? {})) {
        if (p.example === undefined && p.examples === undefined && !isReference(p)) missing.push(`${name}.${field}`);
        if (p.properties) walk(`${name}.${field}`, p);
      }
    };
    for (const [name, schema] of Object.entries(doc.components.schemas)) walk(name, schema);
    for (const { name, op } of operations())
      for (const p of op.parameters ?? []) if (p.example === undefined && p.schema?.example === undefined) missing.push(`${name} parameter ${p.name}`);
    expect(missing).toEqual([]);
  });
});
