#!/usr/bin/env python3
"""Cuts a small test fixture from a raster_rules_probe dump folder (bench/raster_rules_probe.cpp):
store, blend and point samples as text lines, floats in hex so that they read back exactly.
Usage: scripts/raster_fixture.py DUMP_FOLDER "GL description" > tests/data/raster/NAME.txt"""
import random
import struct
import sys


def floats(path):
    data = open(path, 'rb').read()
    return struct.unpack('<%df' % (len(data) // 4), data)


def words(path):
    data = open(path, 'rb').read()
    return struct.unpack('<%dI' % (len(data) // 4), data)


def nearest_even(v):
    c = min(max(v, 0.0), 1.0)
    return int(round(struct.unpack('<f', struct.pack('<f', c * 255.0))[0]))


def via_12_bits(v):
    c = min(max(v, 0.0), 1.0)
    q = int(struct.unpack('<f', struct.pack('<f', c * 4096.0))[0])
    return (q - (q >> 8) + 7) >> 4


def product(x, rounded):
    t = x + 128
    return (t + ((t if rounded else x) >> 8)) >> 8


def main():
    folder, description = sys.argv[1], sys.argv[2]
    rng = random.Random(4122026)
    source = floats(folder + '/blend_source_rgba32f.bin')
    dst = words(folder + '/blend_dst_rgba8.bin')
    stored = words(folder + '/blend_stored_rgba8.bin')
    blended = words(folder + '/blend_result_rgba8.bin')
    print('# raster_rules_probe samples of %s (cut by scripts/raster_fixture.py)' % description)
    print('# store <float> <byte> | blend <dst byte> <channel float> <alpha float> <byte> |')
    print('# point <x> <y> <size> <first x> <last x> <first y> <last y> <s t at the first> '
          '<s t at the last>')
    channels = [(i, c) for i in range(len(stored)) for c in range(4)]
    parted = [(i, c) for i, c in channels
              if nearest_even(source[4 * i + c]) != via_12_bits(source[4 * i + c])]
    for i, c in rng.sample(parted, 150) + rng.sample(channels, 150):
        print('store %s %d' % (source[4 * i + c].hex(), (stored[i] >> (8 * c)) & 255))
    store = via_12_bits if 'NVIDIA' in description else nearest_even
    ties = []
    for i, c in channels:
        x = ((dst[i] >> (8 * c)) & 255) * (255 - store(source[4 * i + 3]))
        if product(x, True) != product(x, False):
            ties.append((i, c))
    for i, c in rng.sample(ties, min(100, len(ties))) + rng.sample(channels, 200):
        print('blend %d %s %s %d' % ((dst[i] >> (8 * c)) & 255, source[4 * i + c].hex(),
                                     source[4 * i + 3].hex(), (blended[i] >> (8 * c)) & 255))
    window = floats(folder + '/point_window_xys.bin')
    coord = floats(folder + '/point_coord_rgba32f.bin')
    side, cell = 1024, 64
    for p in range(len(window) // 3):
        cx, cy = p % (side // cell), p // (side // cell)
        drawn = [(px, py) for py in range(cy * cell, (cy + 1) * cell)
                 for px in range(cx * cell, (cx + 1) * cell)
                 if coord[4 * (py * side + px) + 2] >= 0.0]
        xs, ys = [d[0] for d in drawn], [d[1] for d in drawn]
        first, last = (min(xs), min(ys)), (max(xs), max(ys))

        def at(q):
            o = 4 * (q[1] * side + q[0])
            return coord[o], coord[o + 1]
        print('point %s %s %s %d %d %d %d %s %s %s %s' % (
            window[3 * p].hex(), window[3 * p + 1].hex(), window[3 * p + 2].hex(), first[0],
            last[0], first[1], last[1], at(first)[0].hex(), at(first)[1].hex(),
            at(last)[0].hex(), at(last)[1].hex()))


main()
