import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from './load-config.js';
import { configProblems } from '../../test/support/config-problems.js';

const dataDir = () => mkdtempSync(join(tmpdir(), 'face-cfg-'));

const problemsOf = (env: Record<string, string>): string[] => configProblems(() => loadConfig(env));

describe('face engine configuration (FACE_ENGINE, FACE_MODEL_PATH)', () => {
  it('defaults to face-api', () => {
    expect(loadConfig({ DATA_DIR: dataDir() }).verifier.faceEngine).toEqual({ kind: 'face-api' });
  });

  it('takes an ONNX model that exists, as an absolute path', () => {
    const dir = dataDir();
    writeFileSync(join(dir, 'w600k_r50.onnx'), 'not read at start');
    const config = loadConfig({ DATA_DIR: dir, FACE_ENGINE: 'onnx', FACE_MODEL_PATH: join(dir, 'w600k_r50.onnx') });
    expect(config.verifier.faceEngine).toEqual({ kind: 'onnx', modelPath: join(dir, 'w600k_r50.onnx') });
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
