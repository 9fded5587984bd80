import { inflateSync } from 'node:zlib';

/** The largest drawn signature taken, decoded. */
export const MAX_SIGNATURE_BYTES = 256 * 1024;
const MAX_SIDE = 4096;
/** Pixels of ink below which a drawing counts as empty (a stray tap). */
const MIN_INK_PIXELS = 20;

const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const DATA_URL = /^data:image\/png;base64,([A-Za-z0-9+/]*={0,2})$/i;

/** Channels per pixel by PNG colour type (8-bit, no palette). */
const CHANNELS: Readonly<Record<number, number>> = { 0: 1, 2: 3, 4: 2, 6: 4 };

export type SignatureImage =
  | { ok: true; png: Buffer; width: number; height: number }
  | { ok: false; problem: 'missing' | 'not_png' | 'too_large' | 'empty' };

interface Header {
  width: number;
  height: number;
  channels: number;
}

function readHeader(png: Buffer): { header: Header; data: Buffer } | null {
  if (png.length < 33 || !png.subarray(0, 8).equals(PNG_MAGIC)) return null;
  let offset = 8;
  let header: Header | null = null;
  const data: Buffer[] = [];
  while (offset + 12 <= png.length) {
    const length = png.readUInt32BE(offset);
    const type = png.toString('latin1', offset + 4, offset + 8);
    const body = png.subarray(offset + 8, offset + 8 + length);
    if (body.length !== length) return null;
    if (type === 'IHDR') {
      if (length !== 13) return null;
      const [bitDepth, colourType, , , interlace] = body.subarray(8, 13);
      const channels = CHANNELS[colourType];
      if (bitDepth !== 8 || channels === undefined || interlace !== 0) return null;
      header = { width: body.readUInt32BE(0), height: body.readUInt32BE(4), channels };
    } else if (type === 'IDAT') {
      data.push(body);
    } else if (type === 'IEND') {
      break;
    }
    offset += 12 + length;
  }
  if (!header || data.length === 0) return null;
  if (header.width < 1 || header.height < 1 || header.width > MAX_SIDE || header.height > MAX_SIDE)
    return null;
  return { header, data: Buffer.concat(data) };
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/** Counts the dark, visible pixels of a non-interlaced 8-bit PNG; null when it does not decode. */
function inkPixels(header: Header, compressed: Buffer): number | null {
  const { width, height, channels } = header;
  const stride = width * channels;
  let raw: Buffer;
  try {
    raw = inflateSync(compressed, { maxOutputLength: (stride + 1) * height });
  } catch {
    return null;
  }
  if (raw.length !== (stride + 1) * height) return null;
  let previous = Buffer.alloc(stride);
  let ink = 0;
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const line = Buffer.from(raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1)));
    for (let x = 0; x < stride; x++) {
      const left = x >= channels ? line[x - channels] : 0;
      const up = previous[x];
      const upLeft = x >= channels ? previous[x - channels] : 0;
      switch (filter) {
        case 0:
          break;
        case 1:
          line[x] = (line[x] + left) & 0xff;
          break;
        case 2:
          line[x] = (line[x] + up) & 0xff;
          break;
        case 3:
          line[x] = (line[x] + ((left + up) >> 1)) & 0xff;
          break;
        case 4:
          line[x] = (line[x] + paeth(left, up, upLeft)) & 0xff;
          break;
        default:
          return null;
      }
    }
    for (let x = 0; x < width; x++) {
      const p = x * channels;
      const grey = channels >= 3 ? (line[p] * 299 + line[p + 1] * 587 + line[p + 2] * 114) / 1000 : line[p];
      const alpha = channels === 4 ? line[p + 3] : channels === 2 ? line[p + 1] : 255;
      if (alpha >= 64 && grey < 200) ink += 1;
    }
    previous = line;
  }
  return ink;
}

/**
 * The drawn signature from the form's `data:image/png;base64,...` URL: a real PNG (8-bit,
 * non-interlaced, at most 4096 px a side and 256 KiB) with some ink on it.
 */
export function readSignatureImage(dataUrl: string): SignatureImage {
  if (dataUrl.trim() === '') return { ok: false, problem: 'missing' };
  const match = DATA_URL.exec(dataUrl.trim());
  if (!match) return { ok: false, problem: 'not_png' };
  if ((match[1].length * 3) / 4 > MAX_SIGNATURE_BYTES + 3) return { ok: false, problem: 'too_large' };
  const png = Buffer.from(match[1], 'base64');
  if (png.length > MAX_SIGNATURE_BYTES) return { ok: false, problem: 'too_large' };
  const read = readHeader(png);
  if (!read) return { ok: false, problem: 'not_png' };
  const ink = inkPixels(read.header, read.data);
  if (ink === null) return { ok: false, problem: 'not_png' };
  if (ink < MIN_INK_PIXELS) return { ok: false, problem: 'empty' };
  return { ok: true, png, width: read.header.width, height: read.header.height };
}
