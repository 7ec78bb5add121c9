import { readFileSync } from 'node:fs';
import { inflateSync } from 'node:zlib';

/** Just enough PNG decoding (8-bit RGB/RGBA, non-interlaced) to count pixels of a screenshot. */
export interface Image {
  readonly width: number;
  readonly height: number;
  /** RGB of pixel (x, y). */
  readonly at: (x: number, y: number) => readonly [number, number, number];
}

const paeth = (a: number, b: number, c: number): number => {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
};

export const decodePng = (path: string): Image => {
  const buf = readFileSync(path);
  if (buf.readUInt32BE(0) !== 0x89504e47) throw new Error(`${path} is not a PNG`);
  let offset = 8;
  let width = 0;
  let height = 0;
  let channels = 0;
  const idat: Buffer[] = [];
  while (offset < buf.length) {
    const length = buf.readUInt32BE(offset);
    const type = buf.toString('latin1', offset + 4, offset + 8);
    const data = buf.subarray(offset + 8, offset + 8 + length);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      const [depth, color, , , interlace] = [data[8], data[9], data[10], data[11], data[12]];
      if (depth !== 8 || (color !== 2 && color !== 6) || interlace !== 0) {
        throw new Error(`unsupported PNG: depth ${depth}, colour type ${color}, interlace ${interlace}`);
      }
      channels = color === 6 ? 4 : 3;
    } else if (type === 'IDAT') idat.push(data);
    offset += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const pixels = Buffer.alloc(height * stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    for (let i = 0; i < stride; i++) {
      const x = raw[y * (stride + 1) + 1 + i] as number;
      const a = i >= channels ? (pixels[y * stride + i - channels] as number) : 0;
      const b = y > 0 ? (pixels[(y - 1) * stride + i] as number) : 0;
      const c = y > 0 && i >= channels ? (pixels[(y - 1) * stride + i - channels] as number) : 0;
      const v =
        filter === 0
          ? x
          : filter === 1
            ? x + a
            : filter === 2
              ? x + b
              : filter === 3
                ? x + ((a + b) >> 1)
                : x + paeth(a, b, c);
      pixels[y * stride + i] = v & 0xff;
    }
  }
  return {
    width,
    height,
    at: (x, y) => {
      const k = y * stride + x * channels;
      return [pixels[k] as number, pixels[k + 1] as number, pixels[k + 2] as number];
    },
  };
};

/** Pixels within `tolerance` (per channel) of an RGB colour. */
export const countNear = (img: Image, rgb: readonly [number, number, number], tolerance = 40): number => {
  let n = 0;
  for (let y = 0; y < img.height; y++) {
    for (let x = 0; x < img.width; x++) {
      const p = img.at(x, y);
      if (
        Math.abs(p[0] - rgb[0]) <= tolerance &&
        Math.abs(p[1] - rgb[1]) <= tolerance &&
        Math.abs(p[2] - rgb[2]) <= tolerance
      )
        n++;
    }
  }
  return n;
};
