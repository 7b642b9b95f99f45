export { FaceError, isFaceError, type FaceErrorCode } from './errors.js';
export type { FaceEngine, SimilarityMetric } from './face-engine.js';
export type { Box, FaceDetection, FaceEmbedding, FaceImageInput, HeadPose, Point, PresentationScores, RgbImage } from './types.js';
export { scorePresentation } from './presentation/score-presentation.js';
export { loadPresentationModels, presentationModelDirectory } from './presentation/load-presentation-models.js';
export { FaceApiEngine, type FaceApiEngineOptions } from './face-api/face-api-engine.js';
export { OnnxFaceEngine, onnxEngineName, type OnnxFaceEngineOptions } from './onnx/onnx-face-engine.js';
export { ARCFACE_TEMPLATE_112, alignFace, estimateSimilarity, fivePointsFrom68 } from './onnx/align-face.js';
export { createFaceEngineFromSpec, describeFaceEngine, type FaceEngineSpec } from './engine-spec.js';
export { WorkerFaceEngine } from './worker/worker-face-engine.js';
export type { FrameAnalysis, FrameAnalysisOptions, PreparedFrame } from './worker/protocol.js';
export { loadFaceApi } from './face-api/load-face-api.js';
export { FaceMatcher, type FaceMatch } from './face-matcher.js';
export { decodeImage, decodeImageToFit, toAnalysisImage, toRgbImage } from './image/decode-image.js';
export {
  assertDecodable,
  assertDecodableSize,
  readDecodableHeader,
  MAX_ANALYSIS_SIDE,
  MAX_IMAGE_PIXELS,
  MAX_IMAGE_SIDE,
  MAX_RGB_PIXELS,
} from './image/decode-limits.js';
export { downscaleToFit, type ScaledImage } from './image/downscale-image.js';
export { readImageHeader, type ImageHeader } from './image/read-image-header.js';
export { detectImageFormat, type ImageFormat } from './image/detect-image-format.js';
export { flipHorizontal } from './image/flip-horizontal.js';
export { padImage } from './image/pad-image.js';
export { estimateHeadPose } from './pose/estimate-head-pose.js';
export {
  DEFAULT_QUALITY_THRESHOLDS,
  judgeFaceQuality,
  measureFaceQuality,
  type FaceQualityCode,
  type FaceQualityMetrics,
  type FaceQualityThresholds,
} from './quality/face-quality.js';
export { frameSignature, signatureDistance, type FrameSignature } from './quality/frame-signature.js';
export { cosineSimilarity, euclideanDistance } from './similarity/embedding-distance.js';
export { selectSingleFace } from './select-single-face.js';
export type { CalibrationTable, LevelCalibration } from './levels/calibration-table.js';
export { MatchLevelTable } from './levels/match-level-table.js';
export { loadMatchLevelTable, calibrationFilePath } from './levels/load-calibration-table.js';
export { MATCHING_LEVELS, TARGET_FAR, TARGET_FRR, type MatchLevel, type MatchingLevel } from './levels/match-levels.js';
