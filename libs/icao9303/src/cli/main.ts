#!/usr/bin/env node
/**
 * icao CLI.
 *   verify --sod <file> [--dg <n>=<file>]... [--csca <file|dir>]... [--masterlist <file>]... [--ml-anchor <file>]...
 *          [--crl <file>]... [--ds <file>] [--at <ISO-8601>] [--aa-challenge <hex> --aa-signature <hex>]
 *   parse <file>
 * verify prints one JSON object and exits 0 (PASS), 1 (verification failure) or 2 (unusable input).
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { Icao9303Error } from '../errors.js';
import { fromHex } from '../util/bytes.js';
import { TrustStore } from '../pki/trustStore.js';
import { DocumentCertificate } from '../pki/certificate.js';
import { verifyDocument } from '../verify/verifyDocument.js';
import { parseLdsFile } from '../lds/parseAny.js';
import { findSigner } from '../pa/signerSignature.js';
import { toJson } from './json.js';

class UsageError extends Error {}

const read = (path: string): Uint8Array => {
  try {
    return new Uint8Array(readFileSync(path));
  } catch (e) {
    throw new UsageError(`cannot read ${path}: ${(e as Error).message}`);
  }
};

function verifyCommand(args: string[]): number {
  const { values } = parseArgs({
    args,
    options: {
      sod: { type: 'string' },
      dg: { type: 'string', multiple: true },
      csca: { type: 'string', multiple: true },
      masterlist: { type: 'string', multiple: true },
      'ml-anchor': { type: 'string', multiple: true },
      crl: { type: 'string', multiple: true },
      ds: { type: 'string' },
      at: { type: 'string' },
      'aa-challenge': { type: 'string' },
      'aa-signature': { type: 'string' },
    },
    strict: true,
  });
  if (!values.sod) throw new UsageError('--sod <file> is required');
  const dataGroups = new Map<number, Uint8Array>();
  for (const spec of values.dg ?? []) {
    const m = /^(\d{1,2})=(.+)$/.exec(spec);
    if (!m || Number(m[1]) < 1 || Number(m[1]) > 16) throw new UsageError(`--dg expects <n>=<file> with n in 1..16, got "${spec}"`);
    dataGroups.set(Number(m[1]), read(m[2]));
  }
  const at = values.at ? new Date(values.at) : new Date();
  if (Number.isNaN(at.getTime())) throw new UsageError(`--at "${values.at}" is not an ISO-8601 date`);
  const store = new TrustStore();
  const cscas = (values.csca ?? []).flatMap((p) => store.addCscaPath(p));
  // Master list signers are certified by CSCAs: the --ml-anchor certificates, else the --csca ones (9303-12 §8.2)
  const mlAnchors = values['ml-anchor']?.length ? values['ml-anchor'].flatMap((p) => DocumentCertificate.parseAll(read(p), p)) : cscas;
  for (const ml of values.masterlist ?? []) store.addMasterList(read(ml), mlAnchors);
  for (const crl of values.crl ?? []) store.addCrl(read(crl));
  if (!!values['aa-challenge'] !== !!values['aa-signature']) throw new UsageError('--aa-challenge and --aa-signature go together');
  const hex = (name: string, v: string) => {
    try {
      return fromHex(v);
    } catch {
      throw new UsageError(`${name} is not hex`);
    }
  };
  const result = verifyDocument({
    sod: read(values.sod),
    dataGroups,
    trustStore: store,
    at,
    documentSignerCertificate: values.ds ? read(values.ds) : undefined,
    activeAuth: values['aa-challenge']
      ? { challenge: hex('--aa-challenge', values['aa-challenge']), signature: hex('--aa-signature', values['aa-signature']!) }
      : undefined,
  });
  process.stdout.write(`${toJson(result)}\n`);
  return result.status === 'PASS' ? 0 : 1;
}

function parseCommand(args: string[]): number {
  if (args.length !== 1) throw new UsageError('parse expects exactly one file');
  const file = parseLdsFile(read(args[0]));
  const extra = file.kind === 'EF.SOD' || file.kind === 'EF.CardSecurity' ? { documentSigner: findSigner(file.value)?.summary() } : {};
  process.stdout.write(`${toJson({ ...file, ...extra })}\n`);
  return 0;
}

export function main(argv: string[]): number {
  const [command, ...rest] = argv;
  try {
    if (command === 'verify') return verifyCommand(rest);
    if (command === 'parse') return parseCommand(rest);
    throw new UsageError('usage: icao verify --sod <file> [options] | icao parse <file>');
  } catch (e) {
    if (e instanceof UsageError || e instanceof Icao9303Error || (e as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      process.stderr.write(`icao: ${(e as Error).message}\n`);
      return 2;
    }
    throw e;
  }
}

process.exitCode = main(process.argv.slice(2));
