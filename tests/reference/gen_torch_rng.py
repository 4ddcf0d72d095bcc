#!/usr/bin/python3
"""Write torch_rng.json: PyTorch's CPU random numbers, bit for bit, for tst_torchrng.

Run with Debian's interpreter (python3-torch 1.13) on an x86-64 CPU with AVX2:

    /usr/bin/python3 tests/reference/gen_torch_rng.py

Every float32 is stored as its uint32 bit pattern in hex ("3f800000"), so the C++
test compares bits, not decimals; doubles and 64-bit draws as 16 hex digits. Seeds
are decimal strings, since 2^64 - 1 does not survive a JSON double. The large cases
keep only a SHA-256 of the raw little-endian bytes, one per chunk so a failure says
where, plus the first and last 16 patterns.
"""

import hashlib
import json
import math
import os
import sys

import numpy as np
import torch
import torch.nn as nn

SEEDS = [0, 1, 42, 123456789, 2**32 + 7, 2**64 - 1]
RANDN_SIZES = [1, 5, 15, 16, 17, 31, 32, 33, 100, 1000]
# The chain ends with small calls so it shows the cached normal surviving the block path.
CHAIN_SIZES = RANDN_SIZES + [1, 3]
UNIFORM_BOUNDS = [("-0.25", "0.25", -0.25, 0.25),
                  ("-1/sqrt(10)", "1/sqrt(10)", -1 / math.sqrt(10), 1 / math.sqrt(10))]
UNIFORM_SIZE = 70
LINEAR_SHAPES = [(10, 7), (16, 16), (33, 5)]
CHUNK = 16384


def float_bits(t):
    """Hex uint32 patterns of a float32 tensor, in memory order."""
    a = t.detach().contiguous().numpy().astype(np.float32, copy=False).ravel()
    return ["%08x" % int(v) for v in a.view(np.uint32)]


def u64_hex(values):
    return ["%016x" % (int(v) & (2**64 - 1)) for v in values]


def bounds_entry(lo, hi):
    # The doubles as bit patterns too, so the test does not depend on decimal parsing.
    return {"from": lo, "to": hi, "from_bits": u64_hex(np.array([lo]).view(np.uint64))[0],
            "to_bits": u64_hex(np.array([hi]).view(np.uint64))[0]}


def seed_name(seed):
    return {2**32 + 7: "2^32+7", 2**64 - 1: "2^64-1"}.get(seed, str(seed))


def check_cpu_kernel():
    # randn's block path is the AVX2 kernel; another kernel would write other numbers.
    config = torch.__config__.show()
    if "CPU capability usage: AVX2" not in config:
        sys.exit("torch does not run its AVX2 kernels here; the fixture would be wrong")
    if not torch.__version__.startswith("1.13"):
        sys.exit("expected torch 1.13, found " + torch.__version__)


def mt_case(seed):
    # random_(-2^63, None) on int64 returns random64() = (first << 32) | second, unreduced.
    torch.manual_seed(seed)
    pairs = torch.empty(4, dtype=torch.int64).random_(-2**63, None)
    raw = []
    for v in pairs.tolist():
        v &= 2**64 - 1
        raw += [v >> 32, v & 0xFFFFFFFF]
    # Cross-check with the 32-bit path (random() % (2^32 - 1), equal unless 2^32 - 1 was drawn).
    torch.manual_seed(seed)
    assert torch.randint(0, 2**32 - 1, (8,), dtype=torch.int64).tolist() == raw
    return {"name": "seed %s random()" % seed_name(seed), "kind": "mt", "seed": str(seed),
            "values": raw}


def random64_case(seed):
    torch.manual_seed(seed)
    v = torch.empty(4, dtype=torch.int64).random_(-2**63, None)
    return {"name": "seed %s random64()" % seed_name(seed), "kind": "random64",
            "seed": str(seed), "bits": u64_hex(v.tolist())}


def rand_cases(seed):
    # torch.rand is uniform_(0, 1): fmaf(u, 1, 0) = u, so these are the raw uniforms.
    torch.manual_seed(seed)
    f = torch.rand(8)
    torch.manual_seed(seed)
    d = torch.rand(4, dtype=torch.float64)
    return [{"name": "seed %s rand(8)" % seed_name(seed), "kind": "rand_float",
             "seed": str(seed), "bits": float_bits(f)},
            {"name": "seed %s rand(4, float64)" % seed_name(seed), "kind": "rand_double",
             "seed": str(seed), "bits": u64_hex(d.numpy().view(np.uint64).tolist())}]


def randn_case(seed, n):
    torch.manual_seed(seed)
    return {"name": "seed %s randn(%d)" % (seed_name(seed), n), "kind": "randn",
            "seed": str(seed), "n": n, "bits": float_bits(torch.randn(n))}


def chain_case(seed):
    torch.manual_seed(seed)
    steps = [{"n": n, "bits": float_bits(torch.randn(n))} for n in CHAIN_SIZES]
    name = "seed %s chain randn(%s)" % (seed_name(seed), ",".join(map(str, CHAIN_SIZES)))
    return {"name": name, "kind": "randn_chain", "seed": str(seed), "steps": steps}


def uniform_case(seed, bounds):
    from_text, to_text, lo, hi = bounds
    torch.manual_seed(seed)
    t = torch.empty(UNIFORM_SIZE).uniform_(lo, hi)
    return {"name": "seed %s uniform_(%s, %s)(%d)" % (seed_name(seed), from_text, to_text,
                                                       UNIFORM_SIZE),
            "kind": "uniform", "seed": str(seed), **bounds_entry(lo, hi), "n": UNIFORM_SIZE,
            "bits": float_bits(t)}


def linear_entry(layer):
    return {"in": layer.in_features, "out": layer.out_features,
            "weight": float_bits(layer.weight), "bias": float_bits(layer.bias)}


def linear_case(seed, shape):
    torch.manual_seed(seed)
    layer = nn.Linear(*shape)
    return {"name": "seed %s Linear(%d, %d)" % (seed_name(seed), shape[0], shape[1]),
            "kind": "linear", "seed": str(seed), **linear_entry(layer)}


def reference_order_case():
    # The seed article's program: x, then W_q, W_k, W_v, W_o, each weight before bias.
    torch.manual_seed(42)
    x = torch.randn(2, 4, 16)
    layers = [nn.Linear(16, 16) for _ in range(4)]
    return {"name": "seed 42 randn(2,4,16) then 4x Linear(16, 16)", "kind": "reference",
            "seed": "42", "x": float_bits(x), "linears": [linear_entry(l) for l in layers]}


def large_case(name, kind, seed, t, **extra):
    data = t.detach().contiguous().numpy().astype("<f4", copy=False).ravel()
    raw = data.tobytes()
    bits = float_bits(t)
    return {"name": name, "kind": kind, "seed": str(seed), "n": int(data.size), **extra,
            "sha256": hashlib.sha256(raw).hexdigest(), "chunk": CHUNK,
            "chunk_sha256": [hashlib.sha256(raw[i:i + 4 * CHUNK]).hexdigest()
                             for i in range(0, len(raw), 4 * CHUNK)],
            "head": bits[:16], "tail": bits[-16:]}


def large_cases():
    torch.manual_seed(7)
    n = torch.randn(200003)
    torch.manual_seed(7)
    bound = 1 / math.sqrt(10)
    u = torch.empty(100000).uniform_(-bound, bound)
    return [large_case("seed 7 randn(200003)", "randn_large", 7, n),
            large_case("seed 7 uniform_(-1/sqrt(10), 1/sqrt(10))(100000)", "uniform_large", 7,
                       u, **bounds_entry(-bound, bound))]


def default_seed_case():
    # A fresh generator starts from torch's default seed, 67280421310721.
    g = torch.Generator()
    return {"name": "default seed randn(5)", "kind": "randn_default",
            "seed": str(g.initial_seed()), "n": 5, "bits": float_bits(torch.randn(5, generator=g))}


def main():
    check_cpu_kernel()
    cases = []
    for seed in SEEDS:
        cases.append(mt_case(seed))
        cases.append(random64_case(seed))
        cases += rand_cases(seed)
        cases += [randn_case(seed, n) for n in RANDN_SIZES]
        cases.append(chain_case(seed))
        cases += [uniform_case(seed, b) for b in UNIFORM_BOUNDS]
        cases += [linear_case(seed, s) for s in LINEAR_SHAPES]
    cases.append(reference_order_case())
    cases += large_cases()
    cases.append(default_seed_case())

    # One case per line keeps the file diffable and small.
    header = {"generator": "tests/reference/gen_torch_rng.py", "torch": torch.__version__,
              "cpu_kernel": "AVX2"}
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "torch_rng.json")
    with open(path, "w", encoding="utf-8") as out:
        out.write("{\n")
        for key, value in header.items():
            out.write("%s: %s,\n" % (json.dumps(key), json.dumps(value)))
        out.write('"cases": [\n')
        out.write(",\n".join(json.dumps(c, separators=(",", ":")) for c in cases))
        out.write("\n]\n}\n")
    print("wrote %d cases to %s (%d bytes)" % (len(cases), os.path.basename(path),
                                               os.path.getsize(path)))


if __name__ == "__main__":
    main()
