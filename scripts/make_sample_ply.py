#!/usr/bin/env python3
"""Writes scenes/data/sample.ply, the point cloud of scenes/points.toml: a trefoil knot drawn
as a tube of coloured points, its hue running once round the knot and light and dim bands
winding round the tube, beside a faint halo of dust. The tube passes over and under itself
three times, so a translucent rendering of it needs its drawing order.

Binary little-endian PLY, float x, y, z and uchar red, green, blue, alpha: 16 bytes a point.
Python's standard library only; the same seed gives the same points.

    python3 scripts/make_sample_ply.py [--points N] [--seed S] [--ascii] [OUT]
"""
import argparse
import colorsys
import math
import os
import random
import struct
import sys

TUBE_RADIUS = 0.42
BANDS = 9  # light and dim bands round the tube
HALO_SHARE = 0.06


def knot(t):
    """The trefoil (the (2, 3) torus knot) at parameter t in [0, 2 pi), z up."""
    r = 2.0 + math.cos(3.0 * t)
    return (r * math.cos(2.0 * t), r * math.sin(2.0 * t), -math.sin(3.0 * t) * 1.2)


def normalize(v):
    n = math.sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2])
    return (v[0] / n, v[1] / n, v[2] / n)


def cross(a, b):
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def tube_point(rng):
    t = rng.random() * 2.0 * math.pi
    a = rng.random() * 2.0 * math.pi
    centre = knot(t)
    ahead = knot(t + 1e-3)
    tangent = normalize(tuple(ahead[i] - centre[i] for i in range(3)))
    # A frame round the tangent from the knot's outward direction (never parallel to it here).
    out = normalize((centre[0], centre[1], 0.0))
    side = normalize(cross(tangent, out))
    up = cross(side, tangent)
    radius = TUBE_RADIUS * (0.92 + 0.08 * rng.random())
    p = tuple(centre[i] + radius * (math.cos(a) * up[i] + math.sin(a) * side[i]) for i in range(3))
    # Bands wind round the tube: light and dim by (a + 6 t), so they spiral along it.
    band = int((a + 6.0 * t) / (2.0 * math.pi) * 2 * BANDS) % 2
    r, g, b = colorsys.hsv_to_rgb(t / (2.0 * math.pi), 0.75, 1.0 if band == 0 else 0.55)
    alpha = 0.85 if band == 0 else 0.65
    return p, (r, g, b, alpha)


def halo_point(rng):
    # Dust in a flattened shell round the knot, pale and faint.
    while True:
        v = (rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1))
        n2 = v[0] * v[0] + v[1] * v[1] + v[2] * v[2]
        if 1e-4 < n2 <= 1.0:
            break
    v = normalize(v)
    radius = 3.6 + 0.8 * rng.random()
    p = (v[0] * radius, v[1] * radius, v[2] * radius * 0.55)
    return p, (0.75, 0.82, 1.0, 0.35)


def points(count, seed):
    rng = random.Random(seed)
    for _ in range(count):
        yield halo_point(rng) if rng.random() < HALO_SHARE else tube_point(rng)


def byte(v):
    return max(0, min(255, int(round(v * 255.0))))


def write(path, count, seed, ascii_format):
    header = (
        "ply\n"
        f"format {'ascii' if ascii_format else 'binary_little_endian'} 1.0\n"
        f"comment trefoil knot sample, scripts/make_sample_ply.py --points {count} --seed {seed}\n"
        f"element vertex {count}\n"
        "property float x\nproperty float y\nproperty float z\n"
        "property uchar red\nproperty uchar green\nproperty uchar blue\nproperty uchar alpha\n"
        "end_header\n"
    )
    record = struct.Struct("<fffBBBB")
    with open(path, "wb") as f:
        f.write(header.encode("ascii"))
        for p, c in points(count, seed):
            rgba = tuple(byte(v) for v in c)
            if ascii_format:
                f.write(("%.6g %.6g %.6g %d %d %d %d\n" % (p + rgba)).encode("ascii"))
            else:
                f.write(record.pack(p[0], p[1], p[2], *rgba))


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", nargs="?", default=os.path.join(here, "..", "scenes", "data",
                                                                "sample.ply"))
    parser.add_argument("--points", type=int, default=200000)
    parser.add_argument("--seed", type=int, default=39)
    parser.add_argument("--ascii", action="store_true", help="write format ascii 1.0")
    args = parser.parse_args()
    if args.points < 1:
        sys.exit("--points must be at least 1")
    write(args.out, args.points, args.seed, args.ascii)
    print(f"{os.path.normpath(args.out)}: {args.points} points")


if __name__ == "__main__":
    main()
