"""ggml's tensor types in numpy: the type table, random valid blocks, the dequantizers of the
15 types AttnScope reads and the quantizers of F32, F16, BF16 and Q8_0.

Written from llama.cpp's own definitions: ggml/src/ggml-common.h (the block structs and
kvalues_iq4nl), ggml/src/ggml-quants.c (dequantize_row_q4_0 … dequantize_row_iq4_xs,
get_scale_min_k4, quantize_row_q8_0_ref), ggml/src/ggml-impl.h (the fp16 and bf16
conversions) and ggml/src/ggml.c's type_traits. Every operation is done in float32 in the
order ggml-quants.c writes it (an int times the float scale, then minus or plus the next), one
rounding each, as ggml's C does without fused multiply-adds.

Cross-checked once against llama.cpp's gguf-py/gguf/quants.py (gguf-py of August 2026, run
locally with numpy, not kept here): for every one of the 15 types, on random_blocks (negative
and zero scales) and on random bytes (any scale, infinities and NaNs too; NaNs compared as
NaNs), both dequantizers give the same float32 bits, and quantize("Q8_0", …) and
quantize("BF16", …) the same bytes as its quantizers (its F16 is numpy's cast, as here, but
for NaN's bits). Its GGML_QUANT_SIZES has the sizes below, but for Q8_1 (40 bytes there; ggml's
block_q8_1 is 36). The fixture gen_ggml_blocks.py writes was also compared once with
ggml-quants.c's own dequantize_row_* and GGML_FP16_TO_FP32, compiled locally from ggml's
source (gcc -O2, and -O3 -march=native with FMA): the same bits, NaNs' included.

numpy only (Debian's python3-numpy). Another engineer's GGUF writer imports the constants.
"""
import numpy as np

QK_K = 256

# name -> (ggml_type id, elements per block, bytes per block), as ggml.h and ggml.c have them.
TYPES = {
    "F32": (0, 1, 4), "F16": (1, 1, 2), "Q4_0": (2, 32, 18), "Q4_1": (3, 32, 20),
    "Q5_0": (6, 32, 22), "Q5_1": (7, 32, 24), "Q8_0": (8, 32, 34), "Q8_1": (9, 32, 36),
    "Q2_K": (10, QK_K, 84), "Q3_K": (11, QK_K, 110), "Q4_K": (12, QK_K, 144),
    "Q5_K": (13, QK_K, 176), "Q6_K": (14, QK_K, 210), "Q8_K": (15, QK_K, 292),
    "IQ2_XXS": (16, QK_K, 66), "IQ2_XS": (17, QK_K, 74), "IQ3_XXS": (18, QK_K, 98),
    "IQ1_S": (19, QK_K, 50), "IQ4_NL": (20, 32, 18), "IQ3_S": (21, QK_K, 110),
    "IQ2_S": (22, QK_K, 82), "IQ4_XS": (23, QK_K, 136), "I8": (24, 1, 1), "I16": (25, 1, 2),
    "I32": (26, 1, 4), "I64": (27, 1, 8), "F64": (28, 1, 8), "IQ1_M": (29, QK_K, 56),
    "BF16": (30, 1, 2), "TQ1_0": (34, QK_K, 54), "TQ2_0": (35, QK_K, 66),
    "MXFP4": (39, 32, 17), "NVFP4": (40, 64, 36), "Q1_0": (41, 128, 18), "Q2_0": (42, 64, 18),
}
TYPE_IDS = {name: row[0] for name, row in TYPES.items()}

# The types AttnScope dequantizes (core/io/ggml.h), in ggml's order.
DEQUANTIZABLE = ("F32", "F16", "Q4_0", "Q4_1", "Q5_0", "Q5_1", "Q8_0", "Q2_K", "Q3_K", "Q4_K",
                 "Q5_K", "Q6_K", "IQ4_NL", "IQ4_XS", "BF16")

KVALUES_IQ4NL = np.array([-127, -104, -83, -65, -49, -35, -22, -10, 1, 13, 25, 38, 53, 69, 89,
                          113], dtype=np.int8)

# Where each type's f16 fields are inside its block (byte offsets), for random_blocks: the
# fields that scale the whole block, then the mins.
_HALF_FIELDS = {
    "Q4_0": ((0,), ()), "Q4_1": ((0,), (2,)), "Q5_0": ((0,), ()), "Q5_1": ((0,), (2,)),
    "Q8_0": ((0,), ()), "Q2_K": ((80,), (82,)), "Q3_K": ((108,), ()), "Q4_K": ((0,), (2,)),
    "Q5_K": ((0,), (2,)), "Q6_K": ((208,), ()), "IQ4_NL": ((0,), ()), "IQ4_XS": ((0,), ()),
}


def row_bytes(type_name, cols):
    _, elements, nbytes = TYPES[type_name]
    assert cols % elements == 0, (type_name, cols)
    return cols // elements * nbytes


# fp16 and bf16, bit for bit as ggml converts them.

def half_to_float(bits):
    """uint16 halves -> float32, exact; a signalling NaN comes out quiet, as from ggml's
    portable GGML_FP16_TO_FP32 (a float multiply) and from F16C."""
    h = np.asarray(bits, dtype=np.uint16).astype(np.uint32)
    sign = (h & 0x8000) << 16
    exponent = (h >> 10) & 0x1F
    mantissa = h & 0x3FF
    normal = sign | ((exponent + 112) << 23) | (mantissa << 13)
    subnormal = sign | (mantissa.astype(np.float32) * np.float32(2.0 ** -24)).view(np.uint32)
    special = sign | 0x7F800000 | (mantissa << 13) | np.where(mantissa != 0, 0x400000, 0)
    out = np.where(exponent == 0, subnormal, np.where(exponent == 0x1F, special, normal))
    return out.astype(np.uint32).view(np.float32)


def float_to_half(x):
    """float32 -> uint16 halves, rounded to nearest even as ggml_compute_fp32_to_fp16; a NaN
    becomes 0x7E00 with its sign, as there."""
    x = np.asarray(x, dtype=np.float32)
    with np.errstate(over="ignore"):
        bits = x.astype("<f2").view(np.uint16)
    sign = (x.view(np.uint32) >> 16).astype(np.uint16) & 0x8000
    return np.where(np.isnan(x), sign | 0x7E00, bits).astype(np.uint16)


def bf16_to_float(bits):
    return (np.asarray(bits, dtype=np.uint16).astype(np.uint32) << 16).view(np.float32)


def float_to_bf16(x):
    """ggml_compute_fp32_to_bf16: round to nearest even; a NaN keeps its top bits, made quiet."""
    u = np.asarray(x, dtype=np.float32).view(np.uint32).astype(np.uint64)
    rounded = (u + (0x7FFF + ((u >> 16) & 1))) >> 16
    nan = (u & 0x7FFFFFFF) > 0x7F800000
    return np.where(nan, (u >> 16) | 64, rounded).astype(np.uint16)


# Random blocks.

def _random_scales(rng, n, low, high):
    """n scales of magnitude log-uniform in [low, high]; about a fifth negative, one in
    twenty zero (a zero scale makes a block of zeros, or of its mins)."""
    magnitude = np.exp(rng.uniform(np.log(low), np.log(high), n))
    sign = np.where(rng.random(n) < 0.2, -1.0, 1.0)
    return np.where(rng.random(n) < 0.05, 0.0, sign * magnitude).astype(np.float32)


def random_blocks(type_name, rows, cols, rng):
    """Valid random data of a (rows, cols) tensor of `type_name`: random quant bits and f16
    scales of weights' size (|d| in [1e-3, 1e-2] for 32-element blocks, [1e-4, 1e-3] for the
    256-element super-blocks, whose 6- and 8-bit sub-scales multiply it)."""
    n = rows * cols
    if type_name in ("F32", "F16", "BF16"):
        values = rng.normal(0.0, 0.05, n).astype(np.float32)
        return quantize(type_name, values.reshape(rows, cols))
    _, elements, nbytes = TYPES[type_name]
    blocks = n // elements
    assert n % elements == 0 and cols % elements == 0, (type_name, rows, cols)
    raw = rng.integers(0, 256, size=(blocks, nbytes), dtype=np.uint8)
    low, high = (1e-4, 1e-3) if elements == QK_K else (1e-3, 1e-2)
    scale_fields, min_fields = _HALF_FIELDS[type_name]
    for offset in scale_fields + min_fields:
        halves = float_to_half(_random_scales(rng, blocks, low, high))
        raw[:, offset:offset + 2] = halves.astype("<u2").view(np.uint8).reshape(blocks, 2)
    return raw.tobytes()


# Dequantizers: each returns the (blocks, elements) float32 values of (blocks, bytes) uint8.

def _half_field(b, offset):
    return half_to_float(b[:, offset:offset + 2].copy().view("<u2")[:, 0])[:, None]


def _f32(a):
    return np.asarray(a).astype(np.float32)


def _q4_0(b):
    d = _half_field(b, 0)
    qs = b[:, 2:18].astype(np.int32)
    q = np.concatenate([(qs & 0xF) - 8, (qs >> 4) - 8], axis=1)
    return _f32(q) * d


def _q4_1(b):
    d, m = _half_field(b, 0), _half_field(b, 2)
    qs = b[:, 4:20].astype(np.int32)
    q = np.concatenate([qs & 0xF, qs >> 4], axis=1)
    return _f32(q) * d + m


def _fifth_bits(b, offset):
    """(blocks, 32): bit e of the little-endian word at `offset`, for element e."""
    qh = b[:, offset:offset + 4].copy().view("<u4")[:, 0].astype(np.int64)
    return ((qh[:, None] >> np.arange(32)) & 1).astype(np.int32)


def _q5_0(b):
    d = _half_field(b, 0)
    qs = b[:, 6:22].astype(np.int32)
    q = np.concatenate([qs & 0xF, qs >> 4], axis=1) | (_fifth_bits(b, 2) << 4)
    return _f32(q - 16) * d


def _q5_1(b):
    d, m = _half_field(b, 0), _half_field(b, 2)
    qs = b[:, 8:24].astype(np.int32)
    q = np.concatenate([qs & 0xF, qs >> 4], axis=1) | (_fifth_bits(b, 4) << 4)
    return _f32(q) * d + m


def _q8_0(b):
    return _f32(b[:, 2:34].view(np.int8)) * _half_field(b, 0)


def _iq4_nl(b):
    qs = b[:, 2:18].astype(np.int32)
    q = KVALUES_IQ4NL[np.concatenate([qs & 0xF, qs >> 4], axis=1)]
    return _half_field(b, 0) * _f32(q)


def _q2_k(b):
    # Element 128h + 32j + 16k + l: 2 bits at 2j of qs[32h + 16k + l], scale byte 8h + 2j + k.
    nb = b.shape[0]
    d, dmin = _half_field(b, 80)[:, :, None], _half_field(b, 82)[:, :, None]
    qs = b[:, 16:80].astype(np.int32).reshape(nb, 2, 1, 2, 16)             # (h, ·, k, l)
    q = (qs >> (2 * np.arange(4)).reshape(1, 1, 4, 1, 1)) & 3               # (h, j, k, l)
    sc = b[:, 0:16].astype(np.int32).reshape(nb, 16, 1)                     # 8h + 2j + k
    dl, ml = d * _f32(sc & 0xF), dmin * _f32(sc >> 4)
    return (dl * _f32(q.reshape(nb, 16, 16)) - ml).reshape(nb, QK_K)


def _q3_k_scales(s):
    """(blocks, 16) 6-bit scales from the 12 bytes (ggml's kmask shuffle, byte by byte)."""
    s = s.astype(np.int32)
    lo, hi, top = s[:, 0:4], s[:, 4:8], s[:, 8:12]
    return np.concatenate([(lo & 0xF) | ((top & 3) << 4), (hi & 0xF) | (((top >> 2) & 3) << 4),
                           (lo >> 4) | (((top >> 4) & 3) << 4),
                           (hi >> 4) | (((top >> 6) & 3) << 4)], axis=1)


def _q3_k(b):
    # Element 128h + 32j + 16k + l: 2 bits at 2j of qs[32h + 16k + l], less 4 where bit 4h + j
    # of hmask[16k + l] is clear; scale 8h + 2j + k.
    nb = b.shape[0]
    d = _half_field(b, 108)[:, :, None]
    qs = b[:, 32:96].astype(np.int32).reshape(nb, 2, 1, 2, 16)
    j = np.arange(4).reshape(1, 1, 4, 1, 1)
    low = (qs >> (2 * j)) & 3
    hmask = b[:, 0:32].astype(np.int32).reshape(nb, 1, 1, 2, 16)
    h = np.arange(2).reshape(1, 2, 1, 1, 1)
    q = low - np.where((hmask >> (4 * h + j)) & 1, 0, 4)
    dl = d * _f32(_q3_k_scales(b[:, 96:108]) - 32)[:, :, None]
    return (dl * _f32(q.reshape(nb, 16, 16))).reshape(nb, QK_K)


def _scale_min_k4(s):
    """(blocks, 8) scales and mins from the 12 bytes, as get_scale_min_k4 unpacks them."""
    s = s.astype(np.int32)
    scales = np.concatenate([s[:, 0:4] & 63, (s[:, 8:12] & 0xF) | ((s[:, 0:4] >> 6) << 4)], 1)
    mins = np.concatenate([s[:, 4:8] & 63, (s[:, 8:12] >> 4) | ((s[:, 4:8] >> 6) << 4)], 1)
    return scales, mins


def _k4_values(b, q):
    """Q4_K and Q5_K: q (blocks, 4, 2, 32) for chunk c, nibble n, l -> d·scale·q - dmin·min."""
    nb = b.shape[0]
    d, dmin = _half_field(b, 0)[:, :, None], _half_field(b, 2)[:, :, None]
    scales, mins = _scale_min_k4(b[:, 4:16])                                # index 2c + n
    dl, ml = d * _f32(scales)[:, :, None], dmin * _f32(mins)[:, :, None]
    return (dl * _f32(q.reshape(nb, 8, 32)) - ml).reshape(nb, QK_K)


def _q4_k(b):
    qs = b[:, 16:144].astype(np.int32).reshape(-1, 4, 1, 32)
    return _k4_values(b, np.concatenate([qs & 0xF, qs >> 4], axis=2))


def _q5_k(b):
    qs = b[:, 48:176].astype(np.int32).reshape(-1, 4, 1, 32)
    qh = b[:, 16:48].astype(np.int32).reshape(-1, 1, 1, 32)
    bit = 2 * np.arange(4).reshape(1, 4, 1, 1) + np.arange(2).reshape(1, 1, 2, 1)
    q = np.concatenate([qs & 0xF, qs >> 4], axis=2) + 16 * ((qh >> bit) & 1)
    return _k4_values(b, q)


def _q6_k(b):
    # In half h, element 128h + 32g + l: nibble g // 2 of ql[64h + 32(g % 2) + l], the 2 bits at
    # 2g of qh[32h + l] above it, less 32; scale 8h + l // 16 + 2g.
    nb = b.shape[0]
    d = _half_field(b, 208)[:, :, None, None]
    ql = b[:, 0:128].astype(np.int32).reshape(nb, 2, 2, 32)                 # (h, g % 2, l)
    qh = b[:, 128:192].astype(np.int32).reshape(nb, 2, 1, 32)
    g = np.arange(4).reshape(1, 1, 4, 1)
    nibble = (ql[:, :, g[0, 0, :, 0] % 2, :] >> (4 * (g // 2))) & 0xF
    q = (nibble | (((qh >> (2 * g)) & 3) << 4)) - 32                        # (h, g, l)
    sc = b[:, 192:208].view(np.int8).astype(np.int32).reshape(nb, 2, 8)
    scale = sc[:, :, (np.arange(32) // 16)[None, :] + 2 * np.arange(4)[:, None]]  # (h, g, l)
    return (d * _f32(scale) * _f32(q)).reshape(nb, QK_K)


def _iq4_xs(b):
    nb = b.shape[0]
    d = _half_field(b, 0)
    scales_h = b[:, 2:4].copy().view("<u2")[:, 0].astype(np.int32)[:, None]
    ib = np.arange(8)
    scales_l = b[:, 4 + ib // 2].astype(np.int32)
    ls = ((scales_l >> (4 * (ib % 2))) & 0xF) | (((scales_h >> (2 * ib)) & 3) << 4)
    dl = (d * _f32(ls - 32))[:, :, None]                                    # (blocks, 8, 1)
    qs = b[:, 8:136].astype(np.int32).reshape(nb, 8, 16)
    q = KVALUES_IQ4NL[np.concatenate([qs & 0xF, qs >> 4], axis=2)]
    return (dl * _f32(q)).reshape(nb, QK_K)


_DEQUANTIZERS = {"Q4_0": _q4_0, "Q4_1": _q4_1, "Q5_0": _q5_0, "Q5_1": _q5_1, "Q8_0": _q8_0,
                 "Q2_K": _q2_k, "Q3_K": _q3_k, "Q4_K": _q4_k, "Q5_K": _q5_k, "Q6_K": _q6_k,
                 "IQ4_NL": _iq4_nl, "IQ4_XS": _iq4_xs}


def dequantize(type_name, data, rows, cols):
    """(rows, cols) float32 of `data`, a (rows, cols) tensor of `type_name`, as ggml's
    dequantize_row_* gives each row."""
    assert len(data) == rows * row_bytes(type_name, cols), (type_name, len(data), rows, cols)
    raw = np.frombuffer(data, dtype=np.uint8)
    if type_name == "F32":
        return raw.view("<f4").astype(np.float32).reshape(rows, cols)
    if type_name == "F16":
        return half_to_float(raw.view("<u2")).reshape(rows, cols)
    if type_name == "BF16":
        return bf16_to_float(raw.view("<u2")).reshape(rows, cols)
    _, _, nbytes = TYPES[type_name]
    values = _DEQUANTIZERS[type_name](raw.reshape(-1, nbytes))
    return values.astype(np.float32).reshape(rows, cols)


# Quantizers.

def _quantize_q8_0(x):
    """quantize_row_q8_0_ref: d = amax / 127, q = roundf(x / d) (halves away from zero)."""
    blocks = x.reshape(-1, 32)
    amax = np.max(np.abs(blocks), axis=1)
    d = amax / np.float32(127)
    with np.errstate(divide="ignore"):
        inverse = np.where(d != 0, np.float32(1) / d, np.float32(0)).astype(np.float32)
    scaled = blocks * inverse[:, None]
    rounded = np.trunc(scaled)
    rounded += np.where(np.abs(scaled - rounded) >= 0.5, np.sign(scaled), 0).astype(np.float32)
    out = np.empty((blocks.shape[0], 34), dtype=np.uint8)
    out[:, 0:2] = float_to_half(d).astype("<u2").view(np.uint8).reshape(-1, 2)
    out[:, 2:34] = rounded.astype(np.int8).view(np.uint8)
    return out.tobytes()


def quantize(type_name, x):
    """The bytes of x (float32, rows of whole blocks) in `type_name`, as ggml's reference
    quantizers write them: F32, F16, BF16 and Q8_0 (finite values)."""
    x = np.ascontiguousarray(x, dtype=np.float32)
    if type_name == "F32":
        return x.astype("<f4").tobytes()
    if type_name == "F16":
        return float_to_half(x).astype("<u2").tobytes()
    if type_name == "BF16":
        return float_to_bf16(x).astype("<u2").tobytes()
    if type_name == "Q8_0":
        assert x.shape[-1] % 32 == 0, x.shape
        return _quantize_q8_0(x)
    raise ValueError(f"no quantizer for {type_name} here")
