/**
 * fontkit, the font engine pdfkit depends on (and pins); no types are published. Only parsing is used here: pdfkit
 * takes the parsed font object wherever it takes font bytes.
 */
declare module 'fontkit' {
  export interface Font {
    layout(text: string): unknown;
  }
  export function create(buffer: Uint8Array, postscriptName?: string): Font;
}
