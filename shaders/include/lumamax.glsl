// Shared by the lumamax kernels: the scratch buffer layout and 64-bit ordering keys as uvec2.
//
// A key orders pixels for a maximum: x = the value to maximize, y = ~(frame raster index), so that
// among equal values the first pixel in raster order has the larger key. The zero key means "no
// pixel" (a raster index of 0xffffffff cannot occur: frames are limited to 2^32 - 1 pixels).
//
// scratch[] layout, in uints:
//   [0..1] maximum key   [2..3] minimum key (x = kMaxLuma - L)   [4..5] sum of L >> 8 (lo, hi)
//   [8 + 2k .. 9 + 2k]   key of peak k, k < 64
//   [kTiles + 2t ..]     per tile t: maximum key of the pixels not yet suppressed
//   [kTiles + 2T + 2t..] per tile: minimum key      [kTiles + 4T + t] per tile: sum of L >> 8

const uint kMaxLuma = 0x00ffffffu;  // L < 255 * 65536 < 2^24
const uint kPeaks = 8u;
const uint kTiles = 256u;
const uint kTileWidth = 64u;   // pixels: 16 invocations x 4 pixels
const uint kTileHeight = 16u;  // rows: 16 invocations x 1 row

bool key_greater(uvec2 a, uvec2 b) { return a.x > b.x || (a.x == b.x && a.y > b.y); }
uvec2 key_max(uvec2 a, uvec2 b) { return key_greater(a, b) ? a : b; }

// 64-bit sum as (lo, hi).
uvec2 add64(uvec2 a, uvec2 b) {
  uint carry;
  uint lo = uaddCarry(a.x, b.x, carry);
  return uvec2(lo, a.y + b.y + carry);
}
