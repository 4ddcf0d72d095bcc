"""Writes gguf/blocks/: raw blocks of each of the 15 ggml types AttnScope dequantizes and the
float32 values ggml gives them (ggml_blocks.dequantize), which tst_ggmlquants compares
core/io/ggml's dequantizeRow with, bit for bit.

Each case is <name>.bin (rows × the type's row bytes) and <name>.f32 (rows × cols
little-endian float32), listed in manifest.json with its type, rows and cols. Per type:
  random      valid random blocks (ggml_blocks.random_blocks: some scales negative or zero);
              a row of two blocks for the 256-element types, of four for the 32-element ones
  zero        one all-zero block
  extremes    all quant bits set, all clear, and all set under a negative scale
  scales      random quants under scales of +inf, of the smallest subnormal half and of NaN
and for F32, F16 and BF16 a row of special values (±0, subnormals, ±inf, NaN payloads,
signalling NaNs). Run from anywhere: python3 tests/reference/gen_ggml_blocks.py
"""
import json
import pathlib

import numpy as np

import ggml_blocks as gb

OUT = pathlib.Path(__file__).resolve().parent / "gguf" / "blocks"

# Halves: ±0, the smallest and largest subnormals, the smallest normal, 1, the largest finite,
# ±inf, quiet NaNs, signalling NaNs (0x7C01, 0xFD55), a NaN with every payload bit.
SPECIAL_HALVES = [0x0000, 0x8000, 0x0001, 0x8001, 0x03FF, 0x0400, 0x3C00, 0xBC00, 0x7BFF,
                  0xFBFF, 0x7C00, 0xFC00, 0x7E00, 0xFE00, 0x7C01, 0xFD55, 0x7FFF, 0x3555]
SPECIAL_BF16 = [0x0000, 0x8000, 0x0001, 0x807F, 0x0080, 0x3F80, 0x7F7F, 0x7F80, 0xFF80,
                0x7FC0, 0xFFC1, 0x7F81, 0x7FFF, 0x3EAB]
SPECIAL_F32 = [0x00000000, 0x80000000, 0x00000001, 0x007FFFFF, 0x00800000, 0x3F800000,
               0x7F7FFFFF, 0x7F800000, 0xFF800000, 0x7FC00000, 0x7F800001, 0xFFFFFFFF]


def scale_of(type_name):
    """A normal scale for the type's f16 fields: 1e-2 for 32-element blocks, 1e-3 for 256."""
    return 1e-3 if gb.TYPES[type_name][1] == gb.QK_K else 1e-2


def with_halves(block, type_name, half):
    """`block` (bytes of one block) with every f16 field (scales and mins) set to `half`."""
    block = bytearray(block)
    scales, mins = gb._HALF_FIELDS[type_name]
    for offset in scales + mins:
        block[offset:offset + 2] = int(half).to_bytes(2, "little")
    return bytes(block)


def half_bits(value):
    return int(gb.float_to_half(np.float32(value)))


def cases_of(type_name, rng):
    """(case name, rows, cols, data) of `type_name`."""
    _, elements, nbytes = gb.TYPES[type_name]
    if elements == 1:
        width = {"F32": 4, "F16": 2, "BF16": 2}[type_name]
        special = {"F32": SPECIAL_F32, "F16": SPECIAL_HALVES, "BF16": SPECIAL_BF16}[type_name]
        cols = 64
        row = np.zeros(cols, dtype=np.uint32)
        row[:len(special)] = special
        # the rest: random bit patterns, which reach every exponent
        row[len(special):] = rng.integers(0, 1 << (8 * width), cols - len(special))
        specials = row.astype("<u4" if width == 4 else "<u2").tobytes()
        return [("random", 2, cols, gb.random_blocks(type_name, 2, cols, rng)),
                ("zero", 1, cols, bytes(cols * width)),
                ("special", 1, cols, specials)]
    per_row = 2 if elements == gb.QK_K else 4
    cols = per_row * elements
    scale = half_bits(scale_of(type_name))
    negative = half_bits(-scale_of(type_name))
    ones, zeros = bytes([0xFF]) * nbytes, bytes(nbytes)
    extremes = (with_halves(ones, type_name, scale) + with_halves(zeros, type_name, scale) +
                with_halves(ones, type_name, negative))
    randoms = [gb.random_blocks(type_name, 1, elements, rng) for _ in range(3)]
    scales = b"".join(with_halves(block, type_name, half)
                      for block, half in zip(randoms, (0x7C00, 0x0001, 0x7E00)))
    return [("random", 2, cols, gb.random_blocks(type_name, 2, cols, rng)),
            ("zero", 1, elements, zeros),
            ("extremes", 3, elements, extremes),
            ("scales", 3, elements, scales)]


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(20240612)
    manifest = []
    for type_name in gb.DEQUANTIZABLE:
        for case, rows, cols, data in cases_of(type_name, rng):
            stem = f"{type_name.lower()}_{case}"
            with np.errstate(invalid="ignore", over="ignore"):
                expected = gb.dequantize(type_name, data, rows, cols)
            (OUT / f"{stem}.bin").write_bytes(data)
            (OUT / f"{stem}.f32").write_bytes(expected.astype("<f4").tobytes())
            manifest.append({"case": f"{type_name} {case}", "type": type_name,
                             "type_id": gb.TYPE_IDS[type_name], "rows": rows, "cols": cols,
                             "blocks": f"{stem}.bin", "expected": f"{stem}.f32"})
    (OUT / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n")
    total = sum(p.stat().st_size for p in OUT.iterdir())
    print(f"{len(manifest)} cases, {total} bytes in {OUT}")


if __name__ == "__main__":
    main()
