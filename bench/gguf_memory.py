#!/usr/bin/env python3
"""Peak memory and time of a GGUF model against its file: a Qwen2.5-0.5B-shaped model (24
layers, 896 wide, 14 query heads on 2 K/V heads, SwiGLU of 4864, the 151,936-token
vocabulary, tied embeddings) written as GGUF files of random blocks (tests/reference's writer
and ggml_blocks), each opened and run over T = 128 ids by bench/gguf_run.cpp, which reports
the open and forward times and the peak resident size. The weights stay as their blocks in the mapped file, so the peak
resident size should be the file (its pages, read by the products) plus the attention shown
(24 x 14 x 128 x 128 floats, 22 MB) plus the program; the issue's bound is the file's size
plus 20 % plus the attention.

    /usr/bin/python3 bench/gguf_memory.py build/bench/attnscope_ggufrun [folder for the files]

Types: F16 (every matrix), Q8_0, and a Q4_K_M-like mix (llama.cpp's choice for this shape:
the 896-wide rows are not a multiple of 256, so they fall back to Q5_0; down_proj's rows of
4864 take Q4_K, every other layer's Q6_K; the embedding Q8_0).

Importable: write_model(path, kind) writes one of these files (kinds F32, F16, Q8_0, Q4_K_M;
F32 every matrix as float32), as bench/compare_llamacpp.py does.
"""
import os
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "reference"))
from ggml_blocks import random_blocks, row_bytes  # noqa: E402
from gguf_file import gguf_bytes  # noqa: E402

L, C, H, K, D, I, V = 24, 896, 14, 2, 64, 4864, 151936


def tensor_shapes(kind_of):
    """(name, ggml type, ne) of every tensor, in the file's order."""
    out = [("token_embd.weight", kind_of("token_embd", -1), [C, V])]
    for l in range(L):
        p = "blk.%d." % l
        out += [(p + "attn_norm.weight", "F32", [C]), (p + "ffn_norm.weight", "F32", [C]),
                (p + "attn_q.weight", kind_of("attn_q", l), [C, H * D]),
                (p + "attn_q.bias", "F32", [H * D]),
                (p + "attn_k.weight", kind_of("attn_k", l), [C, K * D]),
                (p + "attn_k.bias", "F32", [K * D]),
                (p + "attn_v.weight", kind_of("attn_v", l), [C, K * D]),
                (p + "attn_v.bias", "F32", [K * D]),
                (p + "attn_output.weight", kind_of("attn_output", l), [H * D, C]),
                (p + "ffn_gate.weight", kind_of("ffn_gate", l), [C, I]),
                (p + "ffn_up.weight", kind_of("ffn_up", l), [C, I]),
                (p + "ffn_down.weight", kind_of("ffn_down", l), [I, C])]
    out.append(("output_norm.weight", "F32", [C]))
    return out


def tensors(kind_of, rng):
    result = []
    for name, kind, ne in tensor_shapes(kind_of):
        rows = ne[1] if len(ne) > 1 else 1
        if len(ne) == 1:  # the norms' weights and the biases, F32 in every kind
            raw = (1.0 + rng.normal(0, 0.02, ne[0])).astype("<f4").tobytes()
        else:
            raw = random_blocks(kind, rows, ne[0], rng)
        result.append((name, kind, ne, raw))
    return result


def byte_letters():
    """GPT-2's bytes_to_unicode: byte b's letter in a byte-level vocabulary."""
    printable = (list(range(ord("!"), ord("~") + 1)) + list(range(ord("\u00a1"), ord("\u00ac") + 1))
                 + list(range(ord("\u00ae"), ord("\u00ff") + 1)))
    letters, extra = {}, 0
    for b in range(256):
        if b in printable:
            letters[b] = chr(b)
        else:
            letters[b] = chr(256 + extra)
            extra += 1
    return [letters[b] for b in range(256)]


def metadata(file_type):
    tokens = ["<%d>" % i for i in range(V)]
    for b, letter in enumerate(byte_letters()):  # each byte a token, no merges
        tokens[b] = letter
    arch = "qwen2"
    return [("general.architecture", "string", arch), ("general.name", "string", "qwen-sized"),
            ("general.file_type", "uint32", file_type), ("general.alignment", "uint32", 32),
            (arch + ".block_count", "uint32", L), (arch + ".context_length", "uint32", 32768),
            (arch + ".embedding_length", "uint32", C),
            (arch + ".feed_forward_length", "uint32", I),
            (arch + ".attention.head_count", "uint32", H),
            (arch + ".attention.head_count_kv", "uint32", K),
            (arch + ".rope.freq_base", "float32", 1000000.0),
            (arch + ".attention.layer_norm_rms_epsilon", "float32", 1e-6),
            ("tokenizer.ggml.model", "string", "gpt2"), ("tokenizer.ggml.pre", "string", "qwen2"),
            ("tokenizer.ggml.tokens", "array", ("string", tokens)),
            ("tokenizer.ggml.merges", "array", ("string", [])),
            ("tokenizer.ggml.eos_token_id", "uint32", 0)]


def mix(kind, layer):
    if kind == "token_embd":
        return "Q8_0"
    if kind == "ffn_down":
        return "Q6_K" if layer % 2 == 0 else "Q4_K"
    return "Q5_0"


# The kinds write_model() writes: (label in gguf_memory's file names, general.file_type
# (llama_ftype), each matrix's type by (tensor kind, layer)). F32 writes every matrix as plain
# float32 (compare_llamacpp.py's baseline; gguf_memory itself runs the other three).
KINDS = {
    "F32": ("F32", 0, lambda k, l: "F32"),
    "F16": ("F16", 1, lambda k, l: "F16"),
    "Q8_0": ("Q8_0", 7, lambda k, l: "Q8_0"),
    "Q4_K_M": ("Q4_K_M-like", 15, mix),
}


def write_model(path, kind):
    """Writes the Qwen2.5-0.5B-shaped model as `kind` (a key of KINDS) to `path`: the same
    bytes every time (random blocks from seed 1)."""
    _, file_type, kind_of = KINDS[kind]
    rng = np.random.default_rng(1)
    with open(path, "wb") as f:
        f.write(gguf_bytes(metadata(file_type), tensors(kind_of, rng)))


def model_size(kind):
    """The size in bytes of the file write_model(path, kind) writes, without writing it."""
    _, file_type, kind_of = KINDS[kind]
    size = len(gguf_bytes(metadata(file_type), [], alignment=1))  # header and metadata
    for name, type_name, ne in tensor_shapes(kind_of):
        size += 8 + len(name.encode("utf-8")) + 4 + 8 * len(ne) + 4 + 8
    size += -size % 32
    for name, type_name, ne in tensor_shapes(kind_of):
        rows = ne[1] if len(ne) > 1 else 1
        data = row_bytes(type_name, ne[0]) * rows
        size += data + (-data % 32)
    return size


def main():
    runner = sys.argv[1]
    folder = sys.argv[2] if len(sys.argv) > 2 else "/tmp"
    for kind in ("F16", "Q8_0", "Q4_K_M"):
        label = KINDS[kind][0]
        path = os.path.join(folder, "qwen-sized-%s.gguf" % label)
        write_model(path, kind)
        run = subprocess.run([runner, path, "128"], capture_output=True, text=True)
        os.remove(path)
        if run.returncode != 0:
            sys.exit(run.stderr)
        print(label + ": " + run.stdout.strip())


if __name__ == "__main__":
    main()
