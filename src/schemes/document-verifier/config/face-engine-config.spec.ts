import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../../config/load-config.js';
import { configProblems } from '../../../../test/support/config-problems.js';
import { loadVerifierConfig, verifierConfig } from './verifier-config.js';

/** The core's configuration with the verifier's section, as the service reads it (loadServiceConfig adds every scheme's). */
const loadServiceConfig = (env: Record<string, string | undefined>) => loadConfig(env, [{ name: 'document-verifier', load: loadVerifierConfig }]);

const dataDir = () => mkdtempSync(join(tmpdir(), 'face-cfg-'));

const problemsOf = (env: Record<string, string>): string[] => configProblems(() => loadServiceConfig(env));

describe('face engine configuration (FACE_ENGINE, FACE_MODEL_PATH)', () => {
  it('defaults to face-api', () => {
    expect(verifierConfig(loadServiceConfig({ DATA_DIR: dataDir() })).faceEngine).toEqual({ kind: 'face-api' });
  });

  it('takes an ONNX model that exists, as an absolute path', () => {
    const dir = dataDir();
    writeFileSync(join(dir, 'w600k_r50.onnx'), 'not read at start');
    const config = loadServiceConfig({ DATA_DIR: dir, FACE_ENGINE: 'onnx', FACE_MODEL_PATH: join(dir, 'w600k_r50.onnx') });
    expect(verifierConfig(config).faceEngine).toEqual({ kind: 'onnx', modelPath: join(dir, 'w600k_r50.onnx') });
  });

  it('refuses an unknown engine, onnx without a model, and a model path that does not exist', () => {
    expect(problemsOf({ DATA_DIR: dataDir(), FACE_ENGINE: 'arcface' })).toEqual(['FACE_ENGINE: must be face-api or onnx']);
    expect(problemsOf({ DATA_DIR: dataDir(), FACE_ENGINE: 'onnx' })).toEqual([expect.stringMatching(/^FACE_MODEL_PATH: must be the path of the \.onnx model/)]);
    expect(problemsOf({ DATA_DIR: dataDir(), FACE_ENGINE: 'onnx', FACE_MODEL_PATH: '' })).toEqual([expect.stringMatching(/^FACE_MODEL_PATH: /)]);
    expect(problemsOf({ DATA_DIR: dataDir(), FACE_ENGINE: 'onnx', FACE_MODEL_PATH: '/nonexistent/model.onnx' })).toEqual([
      'FACE_MODEL_PATH: no file at /nonexistent/model.onnx',
    ]);
  });
});
