#!/usr/bin/env python3
"""AttnScope's forward against llama.cpp's on the same GGUF files: the Qwen2.5-0.5B-shaped
model of bench/gguf_memory.py (24 layers, 896 wide, 14 query heads on 2 K/V heads, head
size 64, SwiGLU of 4864, the 151,936-token vocabulary, tied embeddings, random blocks) as
F32, F16, Q8_0 and the Q4_K_M-like mix, at T = 128 ids, on the same number of threads.

    /usr/bin/python3 bench/compare_llamacpp.py [build/bench/attnscope_ggufrun] [--folder DIR]
        [--rounds N] [--threads N] [--kinds F32,F16,Q8_0,Q4_K_M] [--repeats N] [--logits none|last]

llama.cpp is npm's node-llama-cpp run by bench/llamacpp_forward.mjs (install it once with
`cd bench/llamacpp && NODE_LLAMA_CPP_SKIP_DOWNLOAD=true npm install`, or point NODE_PATH at a
node_modules holding it). The files are written once into --folder (kept, and reused while
their size is the one write_model() writes). Then N rounds, interleaved: in each, for each
kind, attnscope_ggufrun FILE 128 (its forward time: the second of two forwards, to 10 ms)
and at once the node script on the same file (the median of its --repeats evaluations after
a warm-up), with the 1-minute load average before the pair.

What each side times: AttnScope's runIds, every layer's attention weights kept and the final
norm's hidden states, no output head (predictions() applies it later, per position);
llama.cpp's llama_decode of the T ids as one batch from position 0 with no logits asked for
(--logits none: its graph then drops every row before the last layer's FFN and runs no
output head) or with the last token's (--logits last: one row of the head, as its own prompt
processing does). llama.cpp runs without flash attention (AttnScope materialises every P
too); its KV cache is F16, sized to 256 cells.

Threads: AttnScope's parallel loops use coreCount(), std::thread::hardware_concurrency()
(core/base/parallel.h; no variable overrides it; OpenBLAS is told to use one thread per
call), i.e. this machine's online CPUs. --threads defaults to that and is what llama.cpp is
given; any other value is compared anyway, with the mismatch said in the header.

Columns: the file's size; each side's forward per round and the median; llama.cpp / AttnScope,
the median of the rounds' ratios (how many times faster AttnScope is); AttnScope's time over
its own F32 time, the median of the rounds' ratios; the load averages seen (on a machine of
few cores they count the previous pair's own threads too).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gguf_memory  # noqa: E402

T = 128
ALL_KINDS = ("F32", "F16", "Q8_0", "Q4_K_M")


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown CPU"


def ensure_file(folder, kind):
    path = os.path.join(folder, "qwen-sized-%s.gguf" % gguf_memory.KINDS[kind][0])
    size = gguf_memory.model_size(kind)
    if os.path.exists(path) and os.path.getsize(path) == size:
        return path
    print("writing %s (%.0f MB)…" % (os.path.basename(path), size / 1e6), file=sys.stderr,
          flush=True)
    part = path + ".part"
    gguf_memory.write_model(part, kind)
    os.replace(part, path)
    return path


def attnscope_ms(runner, path):
    run = subprocess.run([runner, path, str(T)], capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit("%s failed on %s:\n%s" % (runner, path, run.stderr))
    # "…; open 0.16 s, forward at T = 128 0.50 s (first 0.62 s), …"
    marker = "forward at T = %d " % T
    at = run.stdout.find(marker)
    if at < 0:
        sys.exit("no forward time in: " + run.stdout)
    return 1000.0 * float(run.stdout[at + len(marker):].split()[0])


def llamacpp_ms(node, path, threads, repeats, logits):
    script = os.path.join(HERE, "llamacpp_forward.mjs")
    run = subprocess.run([node, script, path, str(T), str(threads), str(repeats), logits],
                         capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit("llama.cpp (node-llama-cpp) failed on %s:\n%s" % (path, run.stderr))
    summary = json.loads(run.stdout.strip().splitlines()[-1])
    if not summary.get("warmup_last_logits_finite"):
        print("warning: llama.cpp's last logits on %s are not all finite" % path,
              file=sys.stderr)
    return summary


def cell(values, digits=0):
    rounds = ", ".join("%.*f" % (digits, v) for v in values)
    return "%s (%.*f)" % (rounds, digits, statistics.median(values)) if len(values) > 1 \
        else "%.*f" % (digits, values[0])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("runner", nargs="?",
                        default=os.path.join(HERE, "..", "build", "bench", "attnscope_ggufrun"))
    parser.add_argument("--folder", default=os.path.join(tempfile.gettempdir(),
                                                         "attnscope-llamacpp"))
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--kinds", default=",".join(ALL_KINDS))
    parser.add_argument("--repeats", type=int, default=3,
                        help="llama.cpp evaluations per round, after a warm-up (median)")
    parser.add_argument("--logits", choices=("none", "last"), default="none")
    parser.add_argument("--node", default="node")
    args = parser.parse_args()
    kinds = [k.strip() for k in args.kinds.split(",") if k.strip()]
    for kind in kinds:
        if kind not in gguf_memory.KINDS:
            parser.error("unknown kind %s (one of %s)" % (kind, ", ".join(ALL_KINDS)))
    os.makedirs(args.folder, exist_ok=True)
    paths = {kind: ensure_file(args.folder, kind) for kind in kinds}

    ours = {k: [] for k in kinds}
    theirs = {k: [] for k in kinds}
    loads = {k: [] for k in kinds}
    info = None
    for r in range(args.rounds):
        for kind in kinds:
            load = os.getloadavg()[0]
            a = attnscope_ms(args.runner, paths[kind])
            summary = llamacpp_ms(args.node, paths[kind], args.threads, args.repeats,
                                  args.logits)
            info = summary
            ours[kind].append(a)
            theirs[kind].append(summary["median_ms"])
            loads[kind].append(load)
            print("round %d %s: AttnScope %.0f ms, llama.cpp %s ms (median %.1f), load %.2f"
                  % (r + 1, kind, a, summary["ms"], summary["median_ms"], load),
                  file=sys.stderr, flush=True)

    cores = os.cpu_count() or 1
    same = "same thread count" if args.threads == cores else \
        "THREAD COUNTS DIFFER: AttnScope cannot be told fewer than its coreCount()"
    print()
    print("%s, AttnScope %d threads (coreCount() = hardware_concurrency) and llama.cpp %d "
          "threads (%s); T = %d, %d round(s) interleaved; llama.cpp: node-llama-cpp %s, "
          "release %s, %s binary, logits %s, %d evaluation(s) a round (median)"
          % (cpu_model(), cores, args.threads, same, T, args.rounds, info["node_llama_cpp"],
             info["llama_cpp"], info["build"], args.logits, args.repeats))
    print()
    print("| kind | file MB | AttnScope forward ms | llama.cpp ms | llama.cpp / AttnScope "
          "(> 1: AttnScope faster) | AttnScope / its F32 | load avg |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for kind in kinds:
        ratio = statistics.median(t / a for t, a in zip(theirs[kind], ours[kind]))
        if "F32" in ours:
            own = "%.2f" % statistics.median(a / f for a, f in zip(ours[kind], ours["F32"]))
        else:
            own = "–"
        size = os.path.getsize(paths[kind]) / 1e6
        print("| %s | %.0f | %s | %s | %.2f | %s | %s |"
              % (gguf_memory.KINDS[kind][0], size, cell(ours[kind]), cell(theirs[kind]), ratio,
                 own, ", ".join("%.2f" % l for l in loads[kind])))


if __name__ == "__main__":
    main()
