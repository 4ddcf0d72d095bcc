#!/usr/bin/env python3
"""GGUF files of the Qwen/Llama family for tst_ggufmodel, written by gguf_file.py, and what a
plain PyTorch forward gives on them: gen_llama_model.py's forward, on the weights the files
hold (each block dequantized as ggml does, ggml_blocks.py).

- Converted from gen_llama_model.py's checkpoints, as llama.cpp's convert_hf_to_gguf.py does
  (llama.cpp's tensor names; Q and K of the llama architecture with each head's halves
  interleaved, its permute; the tokenizer as tokenizer.ggml.*): qwen2-f32.gguf, llama-f32.gguf
  (permuted, an untied output), llama3-f32.gguf (Llama 3.1's rope scaling as rope_freqs),
  qwen3-bf16.gguf (BF16 blocks, q/k norms), smollm2-f32.gguf
  (6 query heads on 2 K/V heads, permuted), whose numbers are their checkpoints' own
  (tests/reference/llama/<name>.json); qwen2-q8_0.gguf, qwen2-f32's weights quantized to Q8_0
  (ggml's quantize_row_q8_0_ref), whose numbers are near qwen2-f32's.
- Random blocks of every type AttnScope reads, mixed as a Q4_K_M file mixes them (Q4_K, Q6_K,
  Q5_0, Q8_0 …), with the expected numbers of the forward on the dequantized weights:
  qwen2-mix.gguf and llama-mix.gguf (permuted), 256 wide so that every 256-block type fits.

Run with /usr/bin/python3 (torch, numpy); writes tests/reference/gguf/.
"""
import json
import math
import os
import struct

import numpy as np
import torch

import gen_llama_model as L
from ggml_blocks import dequantize, quantize, random_blocks
from gguf_file import write_gguf

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "gguf")

# llama.cpp's general.file_type of each file (llama_ftype).
FILE_TYPES = {"F32": 0, "F16": 1, "Q8_0": 7, "Q4_K_M": 15, "BF16": 32}


def read_safetensors(path):
    """name -> float32 numpy array of a model.safetensors (F32, F16 or BF16)."""
    with open(path, "rb") as f:
        data = f.read()
    (length,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8:8 + length])
    body = data[8 + length:]
    out = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        begin, end = info["data_offsets"]
        raw = np.frombuffer(body[begin:end], dtype="<u2" if info["dtype"] != "F32" else "<f4")
        if info["dtype"] == "F32":
            values = raw.astype(np.float32)
        elif info["dtype"] == "BF16":
            values = (raw.astype(np.uint32) << 16).view(np.float32)
        else:
            values = raw.view("<f2").astype(np.float32)
        out[name] = values.reshape(info["shape"])
    return out


def permute(w, heads):
    """convert_hf_to_gguf.py's LlamaModel.permute: each head's two halves interleaved."""
    return (w.reshape(heads, 2, w.shape[0] // heads // 2, *w.shape[1:])
            .swapaxes(1, 2).reshape(w.shape))


def gguf_names(cfg):
    """(HF name, GGUF name, heads to permute by or 0) of every tensor of a checkpoint."""
    permuted = cfg["model_type"] in ("llama", "mistral")
    H, K = cfg["num_attention_heads"], cfg["num_key_value_heads"]
    names = [("model.embed_tokens.weight", "token_embd.weight", 0),
             ("model.norm.weight", "output_norm.weight", 0)]
    if not cfg.get("tie_word_embeddings"):
        names.append(("lm_head.weight", "output.weight", 0))
    for l in range(cfg["num_hidden_layers"]):
        hf, gg = "model.layers.%d." % l, "blk.%d." % l
        names += [(hf + "input_layernorm.weight", gg + "attn_norm.weight", 0),
                  (hf + "post_attention_layernorm.weight", gg + "ffn_norm.weight", 0),
                  (hf + "mlp.gate_proj.weight", gg + "ffn_gate.weight", 0),
                  (hf + "mlp.up_proj.weight", gg + "ffn_up.weight", 0),
                  (hf + "mlp.down_proj.weight", gg + "ffn_down.weight", 0),
                  (hf + "self_attn.o_proj.weight", gg + "attn_output.weight", 0),
                  (hf + "self_attn.v_proj.weight", gg + "attn_v.weight", 0),
                  (hf + "self_attn.v_proj.bias", gg + "attn_v.bias", 0),
                  (hf + "self_attn.q_proj.weight", gg + "attn_q.weight", H if permuted else 0),
                  (hf + "self_attn.q_proj.bias", gg + "attn_q.bias", H if permuted else 0),
                  (hf + "self_attn.k_proj.weight", gg + "attn_k.weight", K if permuted else 0),
                  (hf + "self_attn.k_proj.bias", gg + "attn_k.bias", K if permuted else 0),
                  (hf + "self_attn.q_norm.weight", gg + "attn_q_norm.weight", 0),
                  (hf + "self_attn.k_norm.weight", gg + "attn_k_norm.weight", 0)]
    return names


def tokenizer_metadata(tokenizer, pre, add_bos=False):
    """tokenizer.ggml.* of a byte-level tokenizer.json (convert_hf_to_gguf's _set_vocab_gpt2)."""
    vocab = tokenizer["model"]["vocab"]
    added = {t["id"]: t for t in tokenizer["added_tokens"]}
    size = max(list(vocab.values()) + list(added)) + 1
    tokens, types = [""] * size, [1] * size
    for token, i in vocab.items():
        tokens[i] = token
    for i, t in added.items():
        tokens[i], types[i] = t["content"], 3 if t["special"] else 4
    merges = [m if isinstance(m, str) else " ".join(m) for m in tokenizer["model"]["merges"]]
    meta = [("tokenizer.ggml.model", "string", "gpt2"), ("tokenizer.ggml.pre", "string", pre),
            ("tokenizer.ggml.tokens", "array", ("string", tokens)),
            ("tokenizer.ggml.token_type", "array", ("int32", types)),
            ("tokenizer.ggml.merges", "array", ("string", merges)),
            ("tokenizer.ggml.add_bos_token", "bool", add_bos)]
    return meta


def model_metadata(cfg, arch, name, file_type, tokenizer, eos):
    d = L.head_dim(cfg)
    meta = [("general.architecture", "string", arch), ("general.name", "string", name),
            ("general.file_type", "uint32", FILE_TYPES[file_type]),
            ("general.alignment", "uint32", 32),
            (arch + ".block_count", "uint32", cfg["num_hidden_layers"]),
            (arch + ".context_length", "uint32", cfg["max_position_embeddings"]),
            (arch + ".embedding_length", "uint32", cfg["hidden_size"]),
            (arch + ".feed_forward_length", "uint32", cfg["intermediate_size"]),
            (arch + ".attention.head_count", "uint32", cfg["num_attention_heads"]),
            (arch + ".attention.head_count_kv", "uint32", cfg["num_key_value_heads"]),
            (arch + ".rope.freq_base", "float32", L.rope_theta(cfg)),
            (arch + ".attention.layer_norm_rms_epsilon", "float32", cfg["rms_norm_eps"]),
            (arch + ".rope.dimension_count", "uint32", d)]
    if d != cfg["hidden_size"] // cfg["num_attention_heads"]:
        meta += [(arch + ".attention.key_length", "uint32", d),
                 (arch + ".attention.value_length", "uint32", d)]
    return meta + tokenizer_metadata(tokenizer, "qwen2") + [
        ("tokenizer.ggml.eos_token_id", "uint32", eos),
        ("tokenizer.ggml.bos_token_id", "uint32", eos)]


def gguf_tensors(cfg, weights, type_of):
    """The tensors of `weights` (HF names -> float32 arrays) in llama.cpp's names and order,
    each in type_of(GGUF name, array) (1-D ones F32 as llama.cpp keeps them); returns them and
    the weights the file holds, dequantized and unpermuted, in HF's names."""
    tensors, held = [], {}
    for hf, gg, heads in gguf_names(cfg):
        if hf not in weights:
            continue
        w = np.ascontiguousarray(weights[hf], dtype=np.float32)
        stored = permute(w, heads) if heads else w
        kind = "F32" if w.ndim == 1 else type_of(gg, stored)
        rows, cols = (1, w.shape[0]) if w.ndim == 1 else w.shape
        raw = kind[1] if isinstance(kind, tuple) else quantize(kind, stored.reshape(rows, cols))
        kind = kind[0] if isinstance(kind, tuple) else kind
        back = dequantize(kind, raw, rows, cols).reshape(w.shape)
        if heads:  # undo the permutation: row a*d/2 + b of a head was written at 2b + a
            d = w.shape[0] // heads
            order = [h * d + 2 * b + a for h in range(heads) for a in range(2)
                     for b in range(d // 2)]
            back = back[order]
        held[hf] = back
        tensors.append((gg, kind, list(reversed(w.shape)), raw))
    return tensors, held


def expected_numbers(name, cfg, held, dtype):
    """gen_llama_model's cases on the weights a file holds (the JSON tst_llamamodel reads)."""
    w = {k: torch.from_numpy(np.array(v, dtype=np.float32)) for k, v in held.items()}
    if cfg.get("tie_word_embeddings"):
        w["lm_head.weight"] = w["model.embed_tokens.weight"]
    cases = []
    with torch.no_grad():
        for case, switches, only_layer in L.CASES:
            sw = dict(L.TEXTBOOK, **switches)
            lens = []
            layers, logits = L.forward(w, cfg, L.IDS, sw, only_layer, lens=lens)
            finite = bool(torch.isfinite(logits).all())
            cases.append({"name": case, "switches": switches, "only_layer": only_layer,
                          "attention": [L.nested(P) for P in layers], "logit_lens": lens,
                          "logits": [L.number(z) for z in logits.tolist()],
                          "top10": torch.topk(logits, 10).indices.tolist() if finite else []})
    return {"model": name, "ids": L.IDS, "dtype": dtype, "family": cfg["model_type"],
            "layers": cfg["num_hidden_layers"], "heads": cfg["num_attention_heads"],
            "kv_heads": cfg["num_key_value_heads"], "head_dim": L.head_dim(cfg),
            "d_model": cfg["hidden_size"], "vocab_size": cfg["vocab_size"], "cases": cases}


def rope_factors(cfg):
    """convert_hf_to_gguf.py's rope_freqs of a llama3 rope scaling (LlamaModel's
    generate_extra_tensors): each frequency's factor, computed in Python's doubles."""
    scaling = cfg.get("rope_scaling") or {}
    if scaling.get("rope_type", "").lower() != "llama3":
        return None
    base, dim = L.rope_theta(cfg), L.head_dim(cfg)
    freqs = 1.0 / (base ** (torch.arange(0, dim, 2, dtype=torch.float32) / dim))
    factor = scaling.get("factor", 8.0)
    low, high = scaling.get("low_freq_factor", 1.0), scaling.get("high_freq_factor", 4.0)
    old = scaling.get("original_max_position_embeddings", 8192)
    out = []
    for freq in freqs:
        wavelen = 2 * math.pi / freq
        if wavelen < old / high:
            out.append(1)
        elif wavelen > old / low:
            out.append(factor)
        else:
            smooth = (old / wavelen - low) / (high - low)
            out.append(1 / ((1 - smooth) / factor + smooth))
    return [float(x) for x in out]


def convert(name, out_name, file_type, type_of, expected=False):
    """A checkpoint of gen_llama_model.py's as a GGUF file, as llama.cpp converts it."""
    folder = os.path.join(L.OUT, name)
    with open(os.path.join(folder, "config.json")) as f:
        cfg = json.load(f)
    with open(os.path.join(folder, "tokenizer.json"), encoding="utf-8") as f:
        tokenizer = json.load(f)
    weights = read_safetensors(os.path.join(folder, "model.safetensors"))
    arch = "llama" if cfg["model_type"] == "mistral" else cfg["model_type"]
    tensors, held = gguf_tensors(cfg, weights, type_of)
    factors = rope_factors(cfg)
    if factors is not None:
        tensors.append(("rope_freqs.weight", "F32", [len(factors)],
                        np.array(factors, dtype="<f4").tobytes()))
    meta = model_metadata(cfg, arch, out_name, file_type, tokenizer, cfg["eos_token_id"])
    write_gguf(os.path.join(OUT, out_name + ".gguf"), meta, tensors)
    if expected:
        with open(os.path.join(OUT, out_name + ".json"), "w") as f:
            json.dump(expected_numbers(out_name, cfg, held, file_type), f, separators=(",", ":"))


def mixed(out_name, seed, cfg, types):
    """A model of random blocks: types[GGUF name's kind] the type of each matrix."""
    rng = np.random.default_rng(seed)
    d, H, K = L.head_dim(cfg), cfg["num_attention_heads"], cfg["num_key_value_heads"]
    C, I, V = cfg["hidden_size"], cfg["intermediate_size"], cfg["vocab_size"]
    shapes = {"model.embed_tokens.weight": (V, C), "model.norm.weight": (C,)}
    if not cfg.get("tie_word_embeddings"):
        shapes["lm_head.weight"] = (V, C)
    for l in range(cfg["num_hidden_layers"]):
        p = "model.layers.%d." % l
        shapes.update({p + "input_layernorm.weight": (C,), p + "post_attention_layernorm.weight": (C,),
                       p + "self_attn.q_proj.weight": (H * d, C), p + "self_attn.k_proj.weight": (K * d, C),
                       p + "self_attn.v_proj.weight": (K * d, C), p + "self_attn.o_proj.weight": (C, H * d),
                       p + "mlp.gate_proj.weight": (I, C), p + "mlp.up_proj.weight": (I, C),
                       p + "mlp.down_proj.weight": (C, I)})
        if cfg["model_type"] == "qwen2":
            shapes.update({p + "self_attn.q_proj.bias": (H * d,), p + "self_attn.k_proj.bias": (K * d,),
                           p + "self_attn.v_proj.bias": (K * d,)})
    weights = {}
    for name, shape in shapes.items():
        if len(shape) == 1:
            base = 1.0 if name.endswith("norm.weight") else 0.0
            weights[name] = (base + rng.normal(0, 0.1, shape)).astype(np.float32)
        else:
            weights[name] = np.zeros(shape, dtype=np.float32)  # replaced by random blocks

    def type_of(gg, stored):
        kind = types[gg]
        return kind, random_blocks(kind, stored.shape[0], stored.shape[1], rng)

    arch = cfg["model_type"]
    tensors, held = gguf_tensors(cfg, weights, type_of)
    with open(os.path.join(L.OUT, "qwen2-f32", "tokenizer.json"), encoding="utf-8") as f:
        tokenizer = json.load(f)
    meta = model_metadata(cfg, arch, out_name, "Q4_K_M", tokenizer, cfg["eos_token_id"])
    write_gguf(os.path.join(OUT, out_name + ".gguf"), meta, tensors)
    with open(os.path.join(OUT, out_name + ".json"), "w") as f:
        json.dump(expected_numbers(out_name, cfg, held, "Q4_K_M"), f, separators=(",", ":"))


def main():
    torch.set_num_threads(1)
    os.makedirs(OUT, exist_ok=True)
    f32 = lambda gg, w: "F32"
    convert("qwen2-f32", "qwen2-f32", "F32", f32)
    convert("llama-f32", "llama-f32", "F32", f32)
    convert("llama3-f32", "llama3-f32", "F32", f32)  # rope_freqs
    convert("smollm2-f32", "smollm2-f32", "F32", f32)
    convert("qwen3-bf16", "qwen3-bf16", "BF16", lambda gg, w: "BF16")
    convert("qwen2-f32", "qwen2-q8_0", "Q8_0", lambda gg, w: "Q8_0", expected=True)
    common = {"hidden_act": "silu", "num_hidden_layers": 2, "num_attention_heads": 4,
              "num_key_value_heads": 2, "max_position_embeddings": 64, "vocab_size": 260,
              "eos_token_id": 2, "hidden_size": 256, "intermediate_size": 512,
              "rms_norm_eps": 1e-6, "rope_theta": 10000.0}
    # Every type AttnScope reads, each on some matrix: a Q4_K_M file's Q4_K, Q6_K, Q5_0 and
    # Q8_0 among them.
    layer_types = [
        {"attn_q": "Q4_K", "attn_k": "Q5_K", "attn_v": "Q6_K", "attn_output": "Q8_0",
         "ffn_gate": "Q2_K", "ffn_up": "Q3_K", "ffn_down": "IQ4_XS"},
        {"attn_q": "Q4_0", "attn_k": "Q4_1", "attn_v": "Q5_0", "attn_output": "Q5_1",
         "ffn_gate": "IQ4_NL", "ffn_up": "F16", "ffn_down": "BF16"}]

    def types(output):
        out = {"token_embd.weight": "Q6_K", "output.weight": output}
        for l, kinds in enumerate(layer_types):
            out.update({"blk.%d.%s.weight" % (l, k): v for k, v in kinds.items()})
        return out
    mixed("qwen2-mix", 11, dict(common, model_type="qwen2", tie_word_embeddings=True),
          types(None))
    mixed("llama-mix", 12, dict(common, model_type="llama", tie_word_embeddings=False),
          types("Q4_K"))


if __name__ == "__main__":
    main()
