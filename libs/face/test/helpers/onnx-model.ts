/**
 * Writes a tiny ONNX model in the test itself (no downloaded weights): ONNX files are protobuf, and the
 * handful of messages a graph needs are encoded here by hand (field numbers from onnx.proto, proto2:
 * repeated scalars unpacked). Enough for ORT to load; not a general encoder.
 */

type Field = Uint8Array;

function varint(value: number): number[] {
  const bytes: number[] = [];
  let v = BigInt(value);
  do {
    let byte = Number(v & 0x7fn);
    v >>= 7n;
    if (v > 0n) byte |= 0x80;
    bytes.push(byte);
  } while (v > 0n);
  return bytes;
}

const int = (field: number, value: number): Field => Uint8Array.from([...varint(field << 3), ...varint(value)]);
const bytes = (field: number, value: Uint8Array): Field => Uint8Array.from([...varint((field << 3) | 2), ...varint(value.length), ...value]);
const str = (field: number, value: string): Field => bytes(field, new TextEncoder().encode(value));
const message = (field: number, ...parts: Field[]): Field => bytes(field, concat(parts));

function concat(parts: Field[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

const FLOAT = 1;
const ATTRIBUTE_INT = 2;
const ATTRIBUTE_INTS = 7;

/** ValueInfoProto of a float tensor with fixed dims. */
function tensorInfo(field: number, name: string, dims: number[]): Field {
  const shape = message(2, ...dims.map((d) => message(1, int(1, d))));
  return message(field, str(1, name), message(2, message(1, int(1, FLOAT), shape)));
}

export interface OnnxNode {
  op: string;
  inputs: string[];
  outputs: string[];
  ints?: Record<string, number[]>;
  int?: Record<string, number>;
}

export interface OnnxGraph {
  input: { name: string; dims: number[] };
  output: { name: string; dims: number[] };
  nodes: OnnxNode[];
  initializers: Array<{ name: string; dims: number[]; values: Float32Array }>;
  opset?: number;
}

export function encodeOnnxModel(graph: OnnxGraph): Uint8Array {
  const nodes = graph.nodes.map((node, i) =>
    message(
      1,
      ...node.inputs.map((name) => str(1, name)),
      ...node.outputs.map((name) => str(2, name)),
      str(3, `node${i}`),
      str(4, node.op),
      ...Object.entries(node.ints ?? {}).map(([name, values]) => message(5, str(1, name), ...values.map((v) => int(8, v)), int(20, ATTRIBUTE_INTS))),
      ...Object.entries(node.int ?? {}).map(([name, value]) => message(5, str(1, name), int(3, value), int(20, ATTRIBUTE_INT))),
    ),
  );
  const initializers = graph.initializers.map((tensor) =>
    message(
      5,
      ...tensor.dims.map((d) => int(1, d)),
      int(2, FLOAT),
      str(8, tensor.name),
      bytes(9, new Uint8Array(tensor.values.buffer, tensor.values.byteOffset, tensor.values.byteLength)),
    ),
  );
  const body = message(
    7,
    ...nodes,
    str(2, 'test-graph'),
    ...initializers,
    tensorInfo(11, graph.input.name, graph.input.dims),
    tensorInfo(12, graph.output.name, graph.output.dims),
  );
  return concat([int(1, 7), str(2, 'identity-broker-test'), body, message(8, str(1, ''), int(2, graph.opset ?? 13))]);
}

/** Deterministic pseudo-random weights (mulberry32), so the model is the same in every run. */
export function fixedWeights(count: number, seed: number): Float32Array {
  let state = seed >>> 0;
  const out = new Float32Array(count);
  for (let i = 0; i < count; i++) {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    out[i] = ((t ^ (t >>> 14)) >>> 0) / 4294967296 - 0.5;
  }
  return out;
}
