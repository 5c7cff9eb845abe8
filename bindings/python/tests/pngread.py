"""Reading the pixels of a PNG file with the standard library only (zlib),
for the tests that look at screenshots. Handles what browsers write: 8-bit
greyscale, RGB or RGBA, not interlaced."""

import struct
import zlib

_CHANNELS = {0: 1, 2: 3, 4: 2, 6: 4}  # PNG colour type -> samples per pixel


def read_png(path):
    """Return (width, height, rows), rows a list of bytearrays of
    width * channels samples, and the number of channels."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError(f"{path}: not a PNG file")
    pos, idat, hdr = 8, [], None
    while pos < len(data):
        (n,) = struct.unpack(">I", data[pos:pos + 4])
        kind = data[pos + 4:pos + 8]
        body = data[pos + 8:pos + 8 + n]
        pos += 12 + n
        if kind == b"IHDR":
            hdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"IEND":
            break
    width, height, depth, ctype, _, _, interlace = hdr
    if depth != 8 or ctype not in _CHANNELS or interlace:
        raise ValueError(f"{path}: unsupported PNG (depth {depth}, colour type {ctype}, interlace {interlace})")
    ch = _CHANNELS[ctype]
    raw = zlib.decompress(b"".join(idat))
    stride = width * ch
    rows, prev = [], bytearray(stride)
    for y in range(height):
        off = y * (stride + 1)
        kind, row = raw[off], bytearray(raw[off + 1:off + 1 + stride])
        for i in range(stride):
            a = row[i - ch] if i >= ch else 0
            b = prev[i]
            c = prev[i - ch] if i >= ch else 0
            if kind == 1:
                row[i] = (row[i] + a) & 0xFF
            elif kind == 2:
                row[i] = (row[i] + b) & 0xFF
            elif kind == 3:
                row[i] = (row[i] + ((a + b) >> 1)) & 0xFF
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                row[i] = (row[i] + pred) & 0xFF
        rows.append(row)
        prev = row
    return width, height, rows, ch


def pixels(path):
    """Yield (x, y, r, g, b) for every pixel of the PNG at path."""
    width, height, rows, ch = read_png(path)
    for y, row in enumerate(rows):
        for x in range(width):
            px = row[x * ch:(x + 1) * ch]
            if ch < 3:
                yield x, y, px[0], px[0], px[0]
            else:
                yield x, y, px[0], px[1], px[2]
