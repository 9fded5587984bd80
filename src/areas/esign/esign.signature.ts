import { setImmediate as nextTurn } from 'node:timers/promises';
import { deflate, inflate } from 'node:zlib';

/** The largest drawn signature taken, as sent (PNG bytes). */
export const MAX_SIGNATURE_BYTES = 256 * 1024;
/**
 * The pixel budget of a drawing: the page exports at most 1800 x 900 (twice its pad, cropped to
 * the ink); anything larger is refused from its header, before a byte of it is inflated.
 */
export const SIGNATURE_MAX_WIDTH = 2000;
export const SIGNATURE_MAX_HEIGHT = 1000;
/** Pixels of ink below which a drawing counts as empty (a stray tap). */
const MIN_INK_PIXELS = 20;
/** Bytes of pixels decoded between turns of the event loop, so no drawing holds it for long. */
const SLICE_BYTES = 64 * 1024;

const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const DATA_URL = /^data:image\/png;base64,([A-Za-z0-9+/]*={0,2})$/i;

/** Channels per pixel by PNG colour type (8-bit, no palette). */
const CHANNELS: Readonly<Record<number, number>> = { 0: 1, 2: 3, 4: 2, 6: 4 };

/**
 * A drawn signature, decoded and checked, as a PDF image takes it: its colour samples and its
 * alpha samples, each row by row and zlib-deflated (a `FlateDecode` stream), so placing it on a
 * PDF decodes nothing again.
 */
export interface SignatureImage {
  width: number;
  height: number;
  colour: 'gray' | 'rgb';
  samples: Buffer;
  /** Null when the PNG has no alpha channel. */
  alpha: Buffer | null;
}

export type SignatureReading =
  | { ok: true; image: SignatureImage }
  | { ok: false; problem: 'missing' | 'not_png' | 'too_large' | 'empty' }
  /** Larger than the pixel budget, said by its header (nothing was inflated). */
  | { ok: false; problem: 'too_many_pixels'; width: number; height: number };

interface Header {
  width: number;
  height: number;
  channels: number;
}

type Chunks = { header: Header; data: Buffer } | { tooLarge: Header } | null;

/**
 * The header and image data of a non-interlaced 8-bit PNG; its size is judged as soon as the
 * header (the first chunk) is read.
 */
function readChunks(png: Buffer): Chunks {
  if (png.length < 33 || !png.subarray(0, 8).equals(PNG_MAGIC)) return null;
  let offset = 8;
  let header: Header | null = null;
  const data: Buffer[] = [];
  while (offset + 12 <= png.length) {
    const length = png.readUInt32BE(offset);
    const type = png.toString('latin1', offset + 4, offset + 8);
    const body = png.subarray(offset + 8, offset + 8 + length);
    if (body.length !== length) return null;
    if (header === null) {
      if (type !== 'IHDR' || length !== 13) return null;
      const [bitDepth, colourType, , , interlace] = body.subarray(8, 13);
      const channels = CHANNELS[colourType];
      if (bitDepth !== 8 || channels === undefined || interlace !== 0) return null;
      header = { width: body.readUInt32BE(0), height: body.readUInt32BE(4), channels };
      if (header.width < 1 || header.height < 1) return null;
      if (header.width > SIGNATURE_MAX_WIDTH || header.height > SIGNATURE_MAX_HEIGHT) {
        return { tooLarge: header };
      }
    } else if (type === 'IDAT') {
      data.push(body);
    } else if (type === 'IEND') {
      break;
    }
    offset += 12 + length;
  }
  if (!header || data.length === 0) return null;
  return { header, data: Buffer.concat(data) };
}

/** Inflates in the thread pool, refusing output beyond `limit` bytes (a decompression bomb). */
function inflated(data: Buffer, limit: number): Promise<Buffer | null> {
  return new Promise((resolve) => {
    inflate(data, { maxOutputLength: limit }, (error, result) => resolve(error ? null : result));
  });
}

function deflated(data: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    deflate(data, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/**
 * Undoes one row's PNG filter in place: the row's bytes start at `at`, the row above (already
 * undone) at `up`, or -1 for the first row. False for an unknown filter.
 */
function unfilterRow(
  raw: Buffer,
  filter: number,
  at: number,
  up: number,
  stride: number,
  bpp: number,
): boolean {
  switch (filter) {
    case 0:
      return true;
    case 1:
      for (let i = bpp; i < stride; i++) raw[at + i] += raw[at + i - bpp];
      return true;
    case 2:
      if (up >= 0) for (let i = 0; i < stride; i++) raw[at + i] += raw[up + i];
      return true;
    case 3:
      for (let i = 0; i < stride; i++) {
        const left = i >= bpp ? raw[at + i - bpp] : 0;
        const above = up >= 0 ? raw[up + i] : 0;
        raw[at + i] += (left + above) >> 1;
      }
      return true;
    case 4:
      for (let i = 0; i < stride; i++) {
        const left = i >= bpp ? raw[at + i - bpp] : 0;
        const above = up >= 0 ? raw[up + i] : 0;
        const upLeft = up >= 0 && i >= bpp ? raw[up + i - bpp] : 0;
        raw[at + i] += paeth(left, above, upLeft);
      }
      return true;
    default:
      return false;
  }
}

/**
 * Decodes the pixels, a slice of rows per turn of the event loop, counting the dark, visible ones;
 * null when they do not decode.
 */
async function decodePixels(
  header: Header,
  compressed: Buffer,
): Promise<{ ink: number; colour: Buffer; alpha: Buffer | null } | null> {
  const { width, height, channels } = header;
  const stride = width * channels;
  const size = (stride + 1) * height;
  const raw = await inflated(compressed, size);
  if (raw === null || raw.length !== size) return null;
  const colourChannels = channels >= 3 ? 3 : 1;
  const colour = Buffer.allocUnsafe(width * height * colourChannels);
  const alpha = channels === 2 || channels === 4 ? Buffer.allocUnsafe(width * height) : null;
  let ink = 0;
  let sliced = 0;
  for (let y = 0; y < height; y++) {
    const at = y * (stride + 1) + 1;
    if (!unfilterRow(raw, raw[at - 1], at, y > 0 ? at - stride - 1 : -1, stride, channels)) return null;
    for (let x = 0, pixel = y * width; x < width; x++, pixel++) {
      const p = at + x * channels;
      let grey: number;
      if (colourChannels === 3) {
        const c = pixel * 3;
        colour[c] = raw[p];
        colour[c + 1] = raw[p + 1];
        colour[c + 2] = raw[p + 2];
        grey = (raw[p] * 299 + raw[p + 1] * 587 + raw[p + 2] * 114) / 1000;
      } else {
        colour[pixel] = raw[p];
        grey = raw[p];
      }
      const opacity = alpha ? raw[p + channels - 1] : 255;
      if (alpha) alpha[pixel] = opacity;
      if (opacity >= 64 && grey < 200) ink += 1;
    }
    sliced += stride;
    if (sliced >= SLICE_BYTES) {
      sliced = 0;
      await nextTurn();
    }
  }
  return { ink, colour, alpha };
}

/**
 * The drawn signature from the form's `data:image/png;base64,...` URL: a real PNG (8-bit,
 * non-interlaced, at most 256 KiB and SIGNATURE_MAX_WIDTH x SIGNATURE_MAX_HEIGHT pixels) with some
 * ink on it. The size is judged from the header before anything is inflated; the pixels are
 * inflated in the thread pool and decoded a slice at a time, yielding the event loop in between.
 */
export async function readSignatureImage(dataUrl: string): Promise<SignatureReading> {
  const parsed = parseSignature(dataUrl);
  if ('ok' in parsed) return parsed;
  return decodeSignature(parsed);
}

/** The checks that need no decoding: the data URL, the byte size and the header's pixel budget. */
function parseSignature(dataUrl: string): SignatureReading | { header: Header; data: Buffer } {
  if (dataUrl.trim() === '') return { ok: false, problem: 'missing' };
  const match = DATA_URL.exec(dataUrl.trim());
  if (!match) return { ok: false, problem: 'not_png' };
  if ((match[1].length * 3) / 4 > MAX_SIGNATURE_BYTES + 3) return { ok: false, problem: 'too_large' };
  const png = Buffer.from(match[1], 'base64');
  if (png.length > MAX_SIGNATURE_BYTES) return { ok: false, problem: 'too_large' };
  const chunks = readChunks(png);
  if (!chunks) return { ok: false, problem: 'not_png' };
  if ('tooLarge' in chunks) {
    const { width, height } = chunks.tooLarge;
    return { ok: false, problem: 'too_many_pixels', width, height };
  }
  return chunks;
}

async function decodeSignature({
  header,
  data,
}: {
  header: Header;
  data: Buffer;
}): Promise<SignatureReading> {
  const pixels = await decodePixels(header, data);
  if (pixels === null) return { ok: false, problem: 'not_png' };
  if (pixels.ink < MIN_INK_PIXELS) return { ok: false, problem: 'empty' };
  const [samples, alpha] = await Promise.all([
    deflated(pixels.colour),
    pixels.alpha ? deflated(pixels.alpha) : Promise.resolve(null),
  ]);
  return {
    ok: true,
    image: {
      width: header.width,
      height: header.height,
      colour: header.channels >= 3 ? 'rgb' : 'gray',
      samples,
      alpha,
    },
  };
}
