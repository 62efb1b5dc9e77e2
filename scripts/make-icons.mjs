// Draws the toolbar and store icons (public/icons/*.png): a violet rounded square with two
// overlapping pages, the second one a copy of the first. Run once when the design changes.
import { mkdirSync, writeFileSync } from 'node:fs';
import { deflateSync, crc32 } from 'node:zlib';

function png(size, rgba) {
  const chunk = (type, data) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body) >>> 0);
    return Buffer.concat([len, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // RGBA
  const raw = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) rgba.copy(raw, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const inRoundRect = (x, y, x0, y0, x1, y1, r) => {
  const cx = Math.min(Math.max(x, x0 + r), x1 - r);
  const cy = Math.min(Math.max(y, y0 + r), y1 - r);
  return (x - cx) ** 2 + (y - cy) ** 2 <= r * r && x >= x0 && x <= x1 && y >= y0 && y <= y1;
};

// Colour of a point in unit coordinates (0..1), or null for transparent.
function shade(x, y) {
  if (!inRoundRect(x, y, 0.02, 0.02, 0.98, 0.98, 0.2)) return null;
  const back = inRoundRect(x, y, 0.2, 0.16, 0.62, 0.7, 0.05);
  const front = inRoundRect(x, y, 0.38, 0.3, 0.8, 0.84, 0.05);
  const line = (x0, x1, yy) => y >= yy && y <= yy + 0.045 && x >= x0 && x <= x1;
  if (front) {
    if (line(0.46, 0.72, 0.42) || line(0.46, 0.72, 0.53) || line(0.46, 0.64, 0.64)) return [107, 79, 187];
    return [255, 255, 255];
  }
  if (back) return [214, 204, 245];
  return [107, 79, 187];
}

mkdirSync('public/icons', { recursive: true });
for (const size of [16, 32, 48, 96, 128]) {
  const ss = 4;
  // Chrome's store and extensions page show the 128 px icon as 96 px of artwork with 16 px of
  // transparent padding on each side; the toolbar sizes fill their square.
  const pad = size === 128 ? 16 / 128 : 0;
  const unit = (p) => (p / size - pad) / (1 - 2 * pad);
  const rgba = Buffer.alloc(size * size * 4);
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let r = 0, g = 0, b = 0, a = 0;
      for (let sy = 0; sy < ss; sy++) {
        for (let sx = 0; sx < ss; sx++) {
          const c = shade(unit(px + (sx + 0.5) / ss), unit(py + (sy + 0.5) / ss));
          if (c) { r += c[0]; g += c[1]; b += c[2]; a++; }
        }
      }
      const i = (py * size + px) * 4;
      if (a) { rgba[i] = r / a; rgba[i + 1] = g / a; rgba[i + 2] = b / a; rgba[i + 3] = (255 * a) / (ss * ss); }
    }
  }
  writeFileSync(`public/icons/${size}.png`, png(size, rgba));
}
console.log('public/icons written');
