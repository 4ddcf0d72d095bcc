#!/usr/bin/env python3
"""Runs AttnScope's benchmarks and the same configurations in PyTorch, then prints one
table of ratios, each measured in this run on this machine.

usage: /usr/bin/python3 bench/compare_torch.py [build/bench/attnscope_bench]

Needs Debian's python3-torch (PyTorch 1.13 on OpenBLAS). The PyTorch forward is the
reference program of ARCHITECTURE.md with a causal mask: projections, QKᵀ, scale,
masked_fill, softmax, P·V and W_o, x and the layers made once outside the timing.
"""
import json
import math
import subprocess
import sys
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

FORWARD = [(128, 256, 4), (512, 768, 12), (2048, 512, 8)]
SWITCH = [(128, 256, 4), (512, 768, 12)]


def torch_forward_ms(T, C, H, repeats=5):
    torch.manual_seed(42)
    B, d_k = 1, C // H
    x = torch.randn(B, T, C)
    wq, wk, wv, wo = (nn.Linear(C, C) for _ in range(4))
    mask = torch.triu(torch.ones(T, T, dtype=torch.bool), 1)

    def split(t):
        return t.view(B, T, H, d_k).transpose(1, 2)

    def forward():
        with torch.no_grad():
            q, k, v = split(wq(x)), split(wk(x)), split(wv(x))
            s = q @ k.transpose(-2, -1)
            p = F.softmax((s / math.sqrt(d_k)).masked_fill(mask, float("-inf")), dim=-1)
            return wo((p @ v).transpose(1, 2).reshape(B, T, C))

    forward()  # warm up
    best = math.inf
    for _ in range(repeats):
        start = time.perf_counter()
        forward()
        best = min(best, (time.perf_counter() - start) * 1000)
    return best


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else "build/bench/attnscope_bench"
    run = subprocess.run([binary, "--benchmark_format=json", "--benchmark_min_time=0.5"],
                         check=True, capture_output=True, text=True)
    results = {b["name"]: b for b in json.loads(run.stdout)["benchmarks"]}
    # A case timed with UseRealTime or UseManualTime carries that in its name too.
    for name, b in list(results.items()):
        for suffix in ("/real_time", "/manual_time"):
            if name.endswith(suffix):
                results.setdefault(name[: -len(suffix)], b)

    def ms(name):
        b = results[name]
        factor = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}[b["time_unit"]]
        return b["real_time"] * factor

    sgemm = results["BM_Sgemm/1024"]["FLOPS"]
    print(f"sgemm 1024: {sgemm / 1e9:.0f} GFLOP/s (both cores), torch {torch.__version__}, "
          f"{torch.get_num_threads()} threads\n")
    print(f"| case | AttnScope | limit or reference | ratio | target |")
    print(f"|---|---|---|---|---|")
    for T, C, H in FORWARD:
        name = f"BM_Forward/{T}/{C}/{H}/manual_time"
        ours = ms(name)
        limit = results[name]["FLOP"] / sgemm * 1000
        theirs = torch_forward_ms(T, C, H)
        print(f"| forward T={T} C={C} H={H} | {ours:.1f} ms | multiply limit {limit:.1f} ms "
              f"| {ours / limit:.2f}× | ≤ 1.3× |")
        print(f"| forward T={T} C={C} H={H} | {ours:.1f} ms | PyTorch {theirs:.1f} ms "
              f"| {theirs / ours:.2f}× faster | ≥ 2× |")
    for T, C, H in SWITCH:
        ours = ms(f"BM_Switch/{T}/{C}/{H}")
        forward = ms(f"BM_Forward/{T}/{C}/{H}/manual_time")
        print(f"| switch to images T={T} H={H} | {ours:.1f} ms | forward {forward:.1f} ms "
              f"| {100 * ours / forward:.0f}% | ≤ 10% |")
    for T, H, copy in ((512, 12, 28311552), (2048, 16, 603979776)):
        render = results[f"BM_Render/{T}/{H}"]["bytes_per_second"]
        memcpy = results[f"BM_Memcpy/{copy}"]["bytes_per_second"]
        print(f"| render T={T} H={H} | {render / 1e9:.1f} GB/s | memcpy {memcpy / 1e9:.1f} GB/s "
              f"| {100 * render / memcpy:.0f}% | ≥ 25% |")


if __name__ == "__main__":
    main()
