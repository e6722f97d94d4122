#!/usr/bin/env python3
"""Writes the seed corpus of png_fuzzer (tests/fuzz/png_corpus): small HALD CLUTs and a lookup
image in several colour types, bit depths and interlacing, and a few broken files."""
import os
import struct
import sys
import zlib

ADAM7 = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]


def chunk(kind, data):
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))


def png(width, height, bit_depth, color_type, pixel, interlaced=False, extra=b""):
    """pixel(x, y) gives the bytes of one pixel (bit depth >= 8) or its value (bit depth < 8)."""
    def row(xs, y):
        if bit_depth >= 8:
            return b"\0" + b"".join(pixel(x, y) for x in xs)
        bits = "".join(format(pixel(x, y), "0%db" % bit_depth) for x in xs)
        bits += "0" * (-len(bits) % 8)
        return b"\0" + bytes(int(bits[i:i + 8], 2) for i in range(0, len(bits), 8))

    if interlaced:
        raw = b"".join(row(range(x0, width, dx), y)
                       for x0, y0, dx, dy in ADAM7 if x0 < width and y0 < height
                       for y in range(y0, height, dy))
    else:
        raw = b"".join(row(range(width), y) for y in range(height))
    ihdr = struct.pack(">IIBBBBB", width, height, bit_depth, color_type, 0, 0, 1 if interlaced else 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + extra + chunk(b"IDAT", zlib.compress(raw, 9)) +
            chunk(b"IEND", b""))


def main(out):
    os.makedirs(out, exist_ok=True)
    seeds = {
        "hald2_rgb8.png": png(8, 8, 8, 2, lambda x, y: bytes((x * 36, y * 36, (x + y) * 18))),
        "hald2_rgb8_adam7.png": png(8, 8, 8, 2, lambda x, y: bytes((x * 36, y * 36, 7)), interlaced=True),
        "hald2_rgba16.png": png(8, 8, 16, 6, lambda x, y: struct.pack(">HHHH", x * 9000, y * 9000, 65535, 0)),
        "hald2_grey4.png": png(8, 8, 4, 0, lambda x, y: (x + y) % 16),
        "hald2_palette.png": png(8, 8, 2, 3, lambda x, y: (x ^ y) % 4,
                                 extra=chunk(b"PLTE", bytes(range(12))) + chunk(b"tRNS", b"\x80")),
        "hald3_grey_adam7.png": png(27, 27, 8, 0, lambda x, y: bytes((x * 9,)), interlaced=True),
        "lookup_grey1.png": png(512, 512, 1, 0, lambda x, y: (x // 64 + y // 64) % 2,
                                extra=chunk(b"tEXt", b"Comment\0seed")),
        "odd_7x7.png": png(7, 7, 8, 2, lambda x, y: b"\1\2\3"),
        # A header claiming far more than the file holds.
        "header_8192.png": (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 8192, 8192, 8, 2, 0, 0, 0)) +
                            chunk(b"IDAT", zlib.compress(b"\0" * 64))),
    }
    full = png(8, 8, 8, 2, lambda x, y: bytes((x * 30, y * 30, 90)))
    seeds["hald2_cut.png"] = full[:len(full) - 30]
    for name, data in seeds.items():
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "png_corpus"))
