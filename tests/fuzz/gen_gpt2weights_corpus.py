#!/usr/bin/env python3
"""Seeds for fuzz_gpt2weights: model.safetensors files for its fixed config.json (2 layers,
2 heads, C 4, 8 positions, n_inner 8, vocab_size 307), random weights, in the layouts a
Hugging Face folder may hold them, and a few the loader must refuse.

Standard library only; writes tests/fuzz/corpus/gpt2weights/.
"""
import json
import os
import random
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "corpus", "gpt2weights")
L, C, P, V, INNER = 2, 4, 8, 307, 8


def tensors():
    shapes = {"wte.weight": [V, C], "wpe.weight": [P, C]}
    for l in range(L):
        h = f"h.{l}."
        shapes.update({
            h + "ln_1.weight": [C], h + "ln_1.bias": [C],
            h + "attn.c_attn.weight": [C, 3 * C], h + "attn.c_attn.bias": [3 * C],
            h + "attn.c_proj.weight": [C, C], h + "attn.c_proj.bias": [C],
            h + "ln_2.weight": [C], h + "ln_2.bias": [C],
            h + "mlp.c_fc.weight": [C, INNER], h + "mlp.c_fc.bias": [INNER],
            h + "mlp.c_proj.weight": [INNER, C], h + "mlp.c_proj.bias": [C],
        })
    shapes.update({"ln_f.weight": [C], "ln_f.bias": [C]})
    return shapes


def encode(value, dtype):
    if dtype == "F32":
        return struct.pack("<f", value)
    if dtype == "F16":
        return struct.pack("<e", value)
    return struct.pack("<f", value)[2:]  # BF16: the float's upper half


def write(name, dtype="F32", prefix="", extra=(), drop=(), reshape=None, pad=0):
    rng = random.Random(name)
    header, data = {}, b""
    shapes = tensors()
    for extra_name, extra_shape in extra:
        shapes[extra_name] = extra_shape
    for tensor, shape in shapes.items():
        if tensor in drop:
            continue
        count = 1
        for n in shape:
            count *= n
        ones = tensor.endswith(("ln_1.weight", "ln_2.weight", "ln_f.weight"))
        values = [1.0 if ones else rng.gauss(0, 0.5) for _ in range(count)]
        begin = len(data)
        data += b"".join(encode(v, dtype) for v in values)
        if reshape and tensor == reshape[0]:
            shape = reshape[1]
        header[prefix + tensor] = {"dtype": dtype, "shape": shape,
                                   "data_offsets": [begin, len(data)]}
    header["__metadata__"] = {"format": "pt"}
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * ((8 - len(text) % 8) % 8 + pad)
    with open(os.path.join(OUT, name), "wb") as out:
        out.write(struct.pack("<Q", len(text)) + text + data)


def main():
    os.makedirs(OUT, exist_ok=True)
    write("f32.safetensors")
    write("f16.safetensors", "F16")
    write("bf16_transformer_prefix.safetensors", "BF16", prefix="transformer.")
    # The buffers and lm_head a checkpoint may carry beside the weights: not read.
    write("f32_buffers_lm_head.safetensors",
          extra=[("h.0.attn.bias", [1, 1, P, P]), ("h.1.attn.masked_bias", []),
                 ("lm_head.weight", [V, C])])
    # Data not aligned to 4 bytes: F32 read by copy.
    write("f32_unaligned.safetensors", pad=2)
    write("missing_ln_f_bias.safetensors", drop=("ln_f.bias",))
    write("transposed_c_attn.safetensors", reshape=("h.1.attn.c_attn.weight", [3 * C, C]))


if __name__ == "__main__":
    main()
