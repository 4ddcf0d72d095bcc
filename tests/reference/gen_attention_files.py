#!/usr/bin/python3
"""Writes the attention files tst_attentionfiles and tst_attention_cli open.

Run with Debian's python3-torch and python3-numpy (no network, no transformers):
    /usr/bin/python3 tests/reference/gen_attention_files.py
It writes tests/reference/attention/: small .npy, .npz and .safetensors files of every
layout and element type, written by numpy and by PyTorch, and expected.json with the
weights each must give (as float32 after conversion, printed so they read back exactly).
The .safetensors files are written byte by byte after the format's description
(the safetensors package is not in Debian): 8-byte little-endian header length, the
JSON header padded with spaces to a multiple of 8, the data.
"""
import json
import os
import struct
import zipfile
import zlib

import numpy as np
import torch

from safetensors_file import write_safetensors


def write_safetensors_loose(path, tensors, metadata=None):
    """The attention files' headers as json.dumps writes them by default (spaces after its
    separators, UTF-8 names): the reader takes any JSON."""
    write_safetensors(path, tensors, metadata, compact=False)

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "attention")
L, B, H, T = 2, 2, 3, 5
TOKENS = ["The", "Ġcat", "Ġsat", "猫", "."]
KEY_TOKENS = ["Le", "Ġchat", "坐", "Ġlà", "!", "?"]


def causal_attention(generator, shape, tq, tk, causal=True):
    """softmax(QKᵀ/√d + M) of random Q, K: rows sum to 1, like a model's heads."""
    d = 8
    q = torch.randn(*shape, tq, d, generator=generator)
    k = torch.randn(*shape, tk, d, generator=generator)
    scores = q @ k.transpose(-1, -2) / d**0.5
    if causal:
        mask = torch.triu(torch.ones(tq, tk, dtype=torch.bool), 1)
        scores = scores.masked_fill(mask, float("-inf"))
    return torch.softmax(scores, dim=-1)


def write_npy(path, array, version=None, fortran=False):
    with open(path, "wb") as f:
        if fortran:
            array = np.asfortranarray(array)
        np.lib.format.write_array(f, array, version=version)


def zip_claiming(path, member, payload, claimed):
    """A zip with one deflated member whose headers claim `claimed` bytes uncompressed."""
    data = zlib.compressobj(9, zlib.DEFLATED, -15)
    packed = data.compress(payload) + data.flush()
    name = member.encode()
    crc = zlib.crc32(payload)
    local = struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 0, 8, 0, 0, crc, len(packed), claimed,
                        len(name), 0) + name
    central = struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 20, 20, 0, 8, 0, 0, crc,
                          len(packed), claimed, len(name), 0, 0, 0, 0, 0, 0) + name
    end = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, 1, 1, len(central),
                      len(local) + len(packed), 0)
    with open(path, "wb") as f:
        f.write(local + packed + central + end)


def as_list(tensor):
    return tensor.float().tolist()


def main():
    os.makedirs(OUT, exist_ok=True)
    g = torch.Generator().manual_seed(28)
    stack = causal_attention(g, (L, B, H), T, T)          # (L, B, H, T, T) float32
    cross = causal_attention(g, (1, 1, 2), 3, 6, False)    # (L, B, H, T_q, T_k)
    a = stack.numpy()
    expected = {"shape": [L, B, H, T, T], "tokens": TOKENS, "key_tokens": KEY_TOKENS,
                "f32": as_list(stack),
                "f16": as_list(stack.half()),
                "bf16": as_list(stack.bfloat16()),
                "cross": as_list(cross)}

    # .npy: versions 1–3, every float type, big-endian, Fortran order.
    write_npy(f"{OUT}/stack5_f32.npy", a, version=(1, 0))
    write_npy(f"{OUT}/stack5_f32_v2.npy", a, version=(2, 0))
    write_npy(f"{OUT}/stack5_f32_v3.npy", a, version=(3, 0))
    write_npy(f"{OUT}/stack5_f16.npy", a.astype(np.float16))
    write_npy(f"{OUT}/stack5_f64.npy", a.astype(np.float64))
    write_npy(f"{OUT}/stack5_f32_big.npy", a.astype(">f4"))
    write_npy(f"{OUT}/stack5_f32_fortran.npy", a, fortran=True)
    write_npy(f"{OUT}/tokens_only.npy", np.array(TOKENS))

    # .npz: stored and deflated; every layout; tokens of one axis and of two; cross.
    t = np.array(TOKENS)
    np.savez(f"{OUT}/stack5_stored.npz", attentions=a, tokens=t)
    np.savez_compressed(f"{OUT}/stack5_deflated.npz", attentions=a, tokens=t)
    np.savez(f"{OUT}/layers4.npz", attentions=a[:, 0], tokens=t)       # (L, H, T, T)
    np.savez(f"{OUT}/heads3.npz", attentions=a[0, 1])                 # (H, T, T)
    np.savez_compressed(f"{OUT}/head2.npz", attentions=a[1, 0, 2].astype(np.float16))  # (T, T)
    np.savez(f"{OUT}/batch_tokens.npz", attentions=a, tokens=np.array([TOKENS, TOKENS[::-1]]))
    np.savez(f"{OUT}/cross.npz", attentions=cross.numpy(), tokens=np.array(TOKENS[:3]),
             key_tokens=np.array(KEY_TOKENS))
    np.savez(f"{OUT}/arr0.npz", a)                                    # arr_0, no name
    np.savez(f"{OUT}/tokens_mismatch.npz", attentions=a, tokens=np.array(TOKENS[:4]))
    # No bytes of tokens, yet 3e11 rows of them (the shape fuzz_npy's finding taught).
    np.savez(f"{OUT}/empty_tokens.npz", attentions=a, tokens=np.empty((300000000000, 0), "<U4"))
    np.savez(f"{OUT}/int_weights.npz", attentions=(a * 100).astype(np.int64))
    np.savez(f"{OUT}/no_attentions.npz", weights=a, other=a)
    # The README's snippet, emulated: Hugging Face returns a tuple of L tensors (B, H, T, T)
    # with output_attentions=True; the snippet stacks them and saves them with numpy.
    layers = tuple(stack[l] for l in range(L))
    np.savez_compressed(f"{OUT}/hf_snippet.npz",
                        attentions=np.stack([x.numpy() for x in layers]),
                        tokens=np.array(TOKENS))
    # NaN and inf weights are kept.
    bad = a.copy()
    bad[0, 0, 0, 1, 0] = np.nan
    bad[1, 1, 2, 4, 3] = np.inf
    np.savez(f"{OUT}/nonfinite.npz", attentions=bad)

    # .safetensors: one tensor a stack (F32, F16, BF16), one a layer as Hugging Face's
    # tuple (named by layer number, written out of order), tokens in __metadata__.
    meta = {"tokens": json.dumps(TOKENS, ensure_ascii=False)}
    write_safetensors_loose(f"{OUT}/stack5_f32.safetensors", [("attentions", stack)], meta)
    write_safetensors_loose(f"{OUT}/stack5_f16.safetensors", [("attentions", stack.half())], meta)
    write_safetensors_loose(f"{OUT}/stack5_bf16.safetensors", [("weights", stack.bfloat16())])
    write_safetensors_loose(f"{OUT}/layers_bf16.safetensors",
                      [(f"attentions.{l}", stack[l].bfloat16()) for l in reversed(range(L))], meta)
    write_safetensors_loose(f"{OUT}/layers_f32.safetensors",
                      [("model.layer.10", stack[1]), ("model.layer.2", stack[0])], meta)
    write_safetensors_loose(f"{OUT}/cross.safetensors", [("attentions", cross)],
                      {"tokens": json.dumps(TOKENS[:3], ensure_ascii=False),
                       "key_tokens": json.dumps(KEY_TOKENS, ensure_ascii=False)})
    write_safetensors_loose(f"{OUT}/int_weights.safetensors", [("attentions", stack.long())])

    # Zip bombs: a member whose headers claim 4 GB; 16 MiB of zeros that deflate to 16 KB.
    zip_claiming(f"{OUT}/bomb_claims.npz", "attentions.npy", b"\0" * 1024, 0xFFFFFFF0)
    with zipfile.ZipFile(f"{OUT}/bomb_zeros.npz", "w", zipfile.ZIP_DEFLATED) as z:
        with z.open("attentions.npy", "w", force_zip64=True) as f:
            header = {"descr": "<f4", "fortran_order": False, "shape": (2048, 2048)}
            np.lib.format.write_array_header_1_0(f, header)
            chunk = b"\0" * (1 << 20)
            for _ in range(16):
                f.write(chunk)

    with open(f"{OUT}/expected.json", "w", encoding="utf-8") as f:
        json.dump(expected, f, ensure_ascii=False)
        f.write("\n")


if __name__ == "__main__":
    main()
