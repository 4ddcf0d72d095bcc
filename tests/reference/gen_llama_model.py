#!/usr/bin/env python3
"""Tiny random checkpoints of the Qwen/Llama family (config model_type qwen2, qwen3, llama) in
Hugging Face's folder layout, and what a plain PyTorch forward gives on them under every switch
of the formula: tst_llamamodel's expected numbers.

The forward is written after Hugging Face's modeling_qwen2.py, modeling_qwen3.py and
modeling_llama.py (eager attention):
- x = model.embed_tokens[ids]; per layer, x += o_proj(attention(input_layernorm(x))),
  x += down_proj(silu(gate_proj(h)) * up_proj(h)) with h = post_attention_layernorm(x);
  model.norm; logits = h lm_head^T, lm_head tied to embed_tokens when tie_word_embeddings.
- RMSNorm in float32: x * rsqrt(mean(x^2) + eps) * weight.
- q_proj (H*d, C), k_proj and v_proj (H_kv*d, C), o_proj (C, H*d): nn.Linear, y = x W^T + b.
  Qwen2: q, k, v biases (o none); llama and qwen3: biases when attention_bias.
- Qwen3: q_norm and k_norm, RMSNorms over head_dim, on each head before RoPE.
- RoPE: inv_freq = 1 / theta^(arange(0, d, 2) / d), emb = cat(freqs, freqs), the rotate-half
  layout q*cos + rotate_half(q)*sin, positions 0 ... T-1 along the heads' T axis.
- Grouped-query attention: repeat_kv, query head h reads K/V head h // (H / H_kv).
The attention step takes the same switches as gen_gpt2_model.py's, plus rope (on|off); the
scale sqrt-dmodel divides by sqrt(hidden_size).

Run with /usr/bin/python3 (torch); writes tests/reference/llama/<name>/ (config.json and
model.safetensors and a tiny byte-level tokenizer.json: the 256 bytes as ids 0 ... 255 in byte
order, three merges spelling " the", and <|endoftext|>) and tests/reference/llama/<name>.json.
"""
import json
import math
import os
import struct

import torch
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "llama")

TEXTBOOK = {"scale": "sqrt-dk", "temperature": 1.0, "axis": "keys", "mask": "causal",
            "mask_fill": "neg-inf", "mask_stage": "before-softmax", "head_split": "transpose",
            "rope": "on"}
# (case name, switches departing from the textbook formula, only_layer)
CASES = [
    ("textbook", {}, -1),
    ("scale=none", {"scale": "none"}, -1),
    ("scale=sqrt-dmodel", {"scale": "sqrt-dmodel"}, -1),
    ("temperature=0.5", {"temperature": 0.5}, -1),
    ("axis=queries", {"axis": "queries"}, -1),
    ("axis=batch mask_stage=after-softmax", {"axis": "batch", "mask_stage": "after-softmax"}, -1),
    ("axis=batch", {"axis": "batch"}, -1),
    ("mask=none", {"mask": "none"}, -1),
    ("mask_fill=-1e9", {"mask_fill": "-1e9"}, -1),
    ("mask_stage=after-softmax", {"mask_stage": "after-softmax"}, -1),
    ("head_split=view", {"head_split": "view"}, -1),
    ("rope=off", {"rope": "off"}, -1),
    ("rope=off mask=none", {"rope": "off", "mask": "none"}, -1),
    ("only_layer=1 scale=none", {"scale": "none"}, 1),
    ("only_layer=0 rope=off head_split=view", {"rope": "off", "head_split": "view"}, 0),
]


def write_safetensors(path, tensors):
    """8-byte little-endian header length, the JSON header padded with spaces to a multiple
    of 8, then each tensor's little-endian bytes."""
    header, blobs, offset = {}, [], 0
    for name, (dtype, tensor) in tensors.items():
        raw = tensor.contiguous().numpy().tobytes() if dtype == "F32" else \
            tensor.contiguous().view(torch.int16).numpy().tobytes()
        header[name] = {"dtype": dtype, "shape": list(tensor.shape),
                        "data_offsets": [offset, offset + len(raw)]}
        blobs.append(raw)
        offset += len(raw)
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)))
        f.write(text)
        for blob in blobs:
            f.write(blob)


# --- the configuration's sizes, as HF reads them ---------------------------------------------

def head_dim(cfg):
    return cfg.get("head_dim") or cfg["hidden_size"] // cfg["num_attention_heads"]


def rope_theta(cfg):
    if "rope_parameters" in cfg:
        return cfg["rope_parameters"]["rope_theta"]
    return cfg.get("rope_theta", 10000.0)


def biases(cfg):
    """(q/k/v biases, o bias, MLP biases)"""
    if cfg["model_type"] == "qwen2":
        return True, False, False
    bias = cfg.get("attention_bias", False)
    return bias, bias, cfg.get("mlp_bias", False)


def make_checkpoint(seed, cfg, qk_std=0.35):
    g = torch.Generator().manual_seed(seed)

    def randn(*shape, std=0.02):
        return torch.randn(*shape, generator=g) * std

    C, V, L = cfg["hidden_size"], cfg["vocab_size"], cfg["num_hidden_layers"]
    H, Hkv, d, I = cfg["num_attention_heads"], cfg["num_key_value_heads"], head_dim(cfg), \
        cfg["intermediate_size"]
    qkv_bias, o_bias, mlp_bias = biases(cfg)
    w = {"model.embed_tokens.weight": randn(V, C, std=0.5)}
    for l in range(L):
        p = f"model.layers.{l}."
        w[p + "input_layernorm.weight"] = 1 + randn(C, std=0.1)
        # Larger than a trained model's so that the scores are not all near 0: the switches
        # then change the weights by more than the tolerance. Not so large that scale=none
        # makes a softmax so sharp that float32's rounding moves a weight by 1e-5
        # (conditioning, not the implementation: torch's own float32 forward would differ).
        w[p + "self_attn.q_proj.weight"] = randn(H * d, C, std=qk_std)
        w[p + "self_attn.k_proj.weight"] = randn(Hkv * d, C, std=qk_std)
        w[p + "self_attn.v_proj.weight"] = randn(Hkv * d, C, std=0.2)
        w[p + "self_attn.o_proj.weight"] = randn(C, H * d, std=0.1)
        if qkv_bias:
            w[p + "self_attn.q_proj.bias"] = randn(H * d, std=0.2)
            w[p + "self_attn.k_proj.bias"] = randn(Hkv * d, std=0.2)
            w[p + "self_attn.v_proj.bias"] = randn(Hkv * d, std=0.2)
        if o_bias:
            w[p + "self_attn.o_proj.bias"] = randn(C, std=0.1)
        if cfg["model_type"] == "qwen3":
            w[p + "self_attn.q_norm.weight"] = 1 + randn(d, std=0.3)
            w[p + "self_attn.k_norm.weight"] = 1 + randn(d, std=0.3)
        w[p + "post_attention_layernorm.weight"] = 1 + randn(C, std=0.1)
        w[p + "mlp.gate_proj.weight"] = randn(I, C, std=0.2)
        w[p + "mlp.up_proj.weight"] = randn(I, C, std=0.2)
        w[p + "mlp.down_proj.weight"] = randn(C, I, std=0.2)
        if mlp_bias:
            w[p + "mlp.gate_proj.bias"] = randn(I, std=0.1)
            w[p + "mlp.up_proj.bias"] = randn(I, std=0.1)
            w[p + "mlp.down_proj.bias"] = randn(C, std=0.1)
    w["model.norm.weight"] = 1 + randn(C, std=0.1)
    if not cfg.get("tie_word_embeddings", False):
        w["lm_head.weight"] = randn(V, C, std=0.3)
    return w


# --- the forward -----------------------------------------------------------------------------

def rms_norm(x, weight, eps):
    x = x.float()
    return weight * (x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps))


def linear(x, w, name):
    y = x @ w[name + ".weight"].T
    return y + w[name + ".bias"] if name + ".bias" in w else y


def rotary(cfg, T):
    d = head_dim(cfg)
    inv_freq = 1.0 / (rope_theta(cfg) ** (torch.arange(0, d, 2, dtype=torch.int64).float() / d))
    freqs = torch.outer(torch.arange(T).float(), inv_freq)  # (T, d/2)
    emb = torch.cat((freqs, freqs), dim=-1)
    return emb.cos(), emb.sin()


def rotate_half(x):
    x1, x2 = x[..., : x.shape[-1] // 2], x[..., x.shape[-1] // 2:]
    return torch.cat((-x2, x1), dim=-1)


def attention(h, w, p, cfg, sw, cos, sin):
    """h (1, T, C) → P (1, H, T, T), the attention's output (1, T, C)."""
    B, T, C = h.shape
    H, Hkv, d = cfg["num_attention_heads"], cfg["num_key_value_heads"], head_dim(cfg)
    q = linear(h, w, p + "self_attn.q_proj")
    k = linear(h, w, p + "self_attn.k_proj")
    v = linear(h, w, p + "self_attn.v_proj")

    def split(t, heads):
        if sw["head_split"] == "transpose":
            return t.view(B, T, heads, d).transpose(1, 2)
        return t.contiguous().view(B, heads, T, d)  # the classic bug

    Q, K, V = split(q, H), split(k, Hkv), split(v, Hkv)
    if cfg["model_type"] == "qwen3":  # over head_dim, the same d-chunks whichever split
        eps = cfg["rms_norm_eps"]
        Q = rms_norm(Q, w[p + "self_attn.q_norm.weight"], eps)
        K = rms_norm(K, w[p + "self_attn.k_norm.weight"], eps)
    if sw["rope"] == "on":
        Q = Q * cos + rotate_half(Q) * sin
        K = K * cos + rotate_half(K) * sin
    K = K.repeat_interleave(H // Hkv, dim=1)  # repeat_kv
    V = V.repeat_interleave(H // Hkv, dim=1)
    S = Q @ K.transpose(-2, -1)  # (B, H, T, T)
    scale = {"sqrt-dk": 1 / math.sqrt(d), "none": 1, "sqrt-dmodel": 1 / math.sqrt(C)}[sw["scale"]]
    logits = S * scale / sw["temperature"]
    M = torch.zeros(B, 1, T, T, dtype=torch.bool)
    if sw["mask"] == "causal":
        M = M | torch.triu(torch.ones(T, T, dtype=torch.bool), 1)
    fill = {"neg-inf": float("-inf"), "-1e9": -1e9}[sw["mask_fill"]]
    dim = {"keys": -1, "queries": -2, "batch": 0}[sw["axis"]]
    if sw["mask_stage"] == "before-softmax":
        P = F.softmax(logits.masked_fill(M, fill), dim=dim)
    else:
        P = F.softmax(logits, dim=dim).masked_fill(M, 0)
    merged = (P @ V).transpose(1, 2).reshape(B, T, H * d)
    return P, linear(merged, w, p + "self_attn.o_proj")


def forward(w, cfg, ids, sw, only_layer):
    eps, T = cfg["rms_norm_eps"], len(ids)
    cos, sin = rotary(cfg, T)
    x = w["model.embed_tokens.weight"][ids][None]  # (1, T, C)
    layers = []
    for l in range(cfg["num_hidden_layers"]):
        p = f"model.layers.{l}."
        s = sw if only_layer in (-1, l) else TEXTBOOK
        P, out = attention(rms_norm(x, w[p + "input_layernorm.weight"], eps), w, p, cfg, s, cos, sin)
        layers.append(P[0])
        x = x + out
        h = rms_norm(x, w[p + "post_attention_layernorm.weight"], eps)
        x = x + linear(F.silu(linear(h, w, p + "mlp.gate_proj")) * linear(h, w, p + "mlp.up_proj"),
                       w, p + "mlp.down_proj")
    x = rms_norm(x, w["model.norm.weight"], eps)
    head = w["model.embed_tokens.weight"] if cfg.get("tie_word_embeddings") else w["lm_head.weight"]
    return layers, x[0, -1] @ head.T


def number(value):
    if math.isnan(value):
        return None
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    return value


def nested(tensor):
    def walk(item):
        return [walk(i) for i in item] if isinstance(item, list) else number(item)

    return walk(tensor.tolist())


# --- the checkpoints -------------------------------------------------------------------------

IDS = [0, 17, 42, 5, 63, 17, 8, 99, 23, 42, 71, 3]


def byte_letters():
    """GPT-2's bytes_to_unicode: each byte's letter in a byte-level vocabulary."""
    printable = (list(range(ord("!"), ord("~") + 1)) + list(range(ord("\u00a1"), ord("\u00ac") + 1))
                 + list(range(ord("\u00ae"), ord("\u00ff") + 1)))
    letters, extra = {}, 0
    for b in range(256):
        if b in printable:
            letters[b] = chr(b)
        else:
            letters[b] = chr(256 + extra)
            extra += 1
    return letters


MERGES = [("\u0120", "t"), ("h", "e"), ("\u0120t", "he")]
ADDED = "<|endoftext|>"


def tokenizer_json():
    """A byte-level BPE tokenizer.json as Qwen's (NFC, its Split regex, ByteLevel without the
    regex), small enough for vocab_size 260: bytes 0 ... 255, merges 256 ... 258, one added."""
    letters = byte_letters()
    vocab = {letters[b]: b for b in range(256)}
    for i, (a, b) in enumerate(MERGES):
        vocab[a + b] = 256 + i
    split = {"type": "Split", "pattern": {"Regex": (
        "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}| ?[^\\s\\p{L}\\p{N}]+"
        "[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+")}, "behavior": "Isolated", "invert": False}
    byte_level = {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": False,
                  "use_regex": False}
    return {"version": "1.0", "truncation": None, "padding": None,
            "added_tokens": [{"id": 259, "content": ADDED, "single_word": False, "lstrip": False,
                              "rstrip": False, "normalized": False, "special": True}],
            "normalizer": {"type": "NFC"},
            "pre_tokenizer": {"type": "Sequence", "pretokenizers": [split, byte_level]},
            "post_processor": None, "decoder": {"type": "ByteLevel"},
            "model": {"type": "BPE", "dropout": None, "unk_token": None,
                      "continuing_subword_prefix": "", "end_of_word_suffix": "",
                      "fuse_unk": False, "byte_fallback": False, "ignore_merges": False,
                      "vocab": vocab, "merges": [a + " " + b for a, b in MERGES]}}


def build(name, seed, dtype, cfg, prefix_extras=None, qk_std=0.35):
    folder = os.path.join(OUT, name)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "tokenizer.json"), "w", encoding="utf-8") as f:
        json.dump(tokenizer_json(), f, ensure_ascii=False)
    with open(os.path.join(folder, "config.json"), "w") as f:
        json.dump(cfg, f, indent=2)
    w = make_checkpoint(seed, cfg, qk_std)
    torch_type = {"F32": torch.float32, "F16": torch.float16, "BF16": torch.bfloat16}[dtype]
    stored = {k: v.to(torch_type) for k, v in w.items()}
    w = {k: v.float() for k, v in stored.items()}  # what the model computes with
    tensors = {k: (dtype, v) for k, v in stored.items()}
    if prefix_extras:  # a tied head stored anyway, which a reader must not need
        tensors["lm_head.weight"] = (dtype, stored["model.embed_tokens.weight"])
    write_safetensors(os.path.join(folder, "model.safetensors"), tensors)

    cases = []
    with torch.no_grad():
        for case, switches, only_layer in CASES:
            sw = dict(TEXTBOOK, **switches)
            layers, logits = forward(w, cfg, IDS, sw, only_layer)
            finite = bool(torch.isfinite(logits).all())
            cases.append({"name": case, "switches": switches, "only_layer": only_layer,
                          "attention": [nested(P) for P in layers],
                          "logits": [number(z) for z in logits.tolist()],
                          "top10": torch.topk(logits, 10).indices.tolist() if finite else []})
    expected = {"model": name, "ids": IDS, "dtype": dtype, "family": cfg["model_type"],
                "layers": cfg["num_hidden_layers"], "heads": cfg["num_attention_heads"],
                "kv_heads": cfg["num_key_value_heads"], "head_dim": head_dim(cfg),
                "d_model": cfg["hidden_size"], "vocab_size": cfg["vocab_size"], "cases": cases}
    with open(os.path.join(OUT, name + ".json"), "w") as f:
        json.dump(expected, f, separators=(",", ":"))


def main():
    torch.set_num_threads(1)
    common = {"hidden_act": "silu", "num_hidden_layers": 2, "num_attention_heads": 4,
              "num_key_value_heads": 2, "max_position_embeddings": 64, "vocab_size": 260}
    # Qwen2: q/k/v biases, tied embeddings, rope_theta at the top level, F32.
    build("qwen2-f32", 1, "F32", dict(common, model_type="qwen2", architectures=["Qwen2ForCausalLM"],
                                      hidden_size=32, intermediate_size=64, rms_norm_eps=1e-6,
                                      rope_theta=10000.0, tie_word_embeddings=True,
                                      use_sliding_window=False, torch_dtype="float32"))
    # Qwen3: q_norm/k_norm, head_dim 16 given (H*d = 64 > hidden 32), rope_parameters, BF16,
    # the tied head also stored.
    build("qwen3-bf16", 2, "BF16",
          dict(common, model_type="qwen3", architectures=["Qwen3ForCausalLM"], hidden_size=32,
               head_dim=16, intermediate_size=48, rms_norm_eps=1e-6, attention_bias=False,
               rope_parameters={"rope_theta": 1000000.0, "rope_type": "default"},
               tie_word_embeddings=True, dtype="bfloat16"), prefix_extras=True)
    # Llama: no biases, an untied lm_head, head_dim from hidden/heads, F32.
    build("llama-f32", 3, "F32", dict(common, model_type="llama", architectures=["LlamaForCausalLM"],
                                      hidden_size=48, intermediate_size=96, rms_norm_eps=1e-5,
                                      rope_theta=500000.0, attention_bias=False, mlp_bias=False,
                                      tie_word_embeddings=False, rope_scaling=None,
                                      torch_dtype="float32"), qk_std=0.25)


if __name__ == "__main__":
    main()
