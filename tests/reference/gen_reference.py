#!/usr/bin/python3
"""Writes reference_cases.json: PyTorch's numbers for AttnScope's reference program,
and preset_cases.json: the same program's numbers for every preset (see preset_cases).

Run with Debian's interpreter and its python3-torch 1.13 (no pip):

    /usr/bin/python3 tests/reference/gen_reference.py

Each case runs the program of ARCHITECTURE.md ("Reference semantics") literally, with
embedding mode "torch", tokenizer "spaces" (one sequence per line, one token per word)
and no positional encoding added to x (positional "none", or "rope", which rotates Q
and K instead). Lines of different lengths are padded to T; with padding_mask on, the
keys of the pad tokens are masked like a key_padding_mask, and the mask
M = causal OR sliding window OR pad-key follows the mask stage.

The switches of newer models' attention (MODERN; at their defaults the program is the
classic one bit for bit): kv_heads K (grouped-query attention), qk_norm, positional
"rope" with rope_theta, alibi, softcap, window and sink; reference() says where each acts.

The file is a JSON list of cases:

    {"name": "...", "text": "...", "config": {... spelled as the CLI spells it ...},
     "shape": {"B", "T", "C", "H", "kv_heads" (K), "d_k", "lengths"},
     "tensors": {"x": (B,T,C), "wq.weight": (C,C) (out,in), "wq.bias": (C),
                 "wk.weight", "wv.weight": (K·d_k,C), ... "wo.bias",
                 "q": (B,T,C), "k", "v": (B,T,K·d_k) nn.Linear outputs before the split,
                 "scores": (B,H,T,T) S, "logits": (B,H,T,T), "weights": (B,H,T,T) P,
                 "sink_weights": (B,H,T) the sink's share of each row (zeros without one),
                 "merged": (B,T,C) heads concatenated, "output": (B,T,C) O},
     "std_scores": torch.std(S), "std_logits": torch.std(S * scale / tau),
     "std_capped": torch.std(L) after ALiBi and soft-capping}

Cross-attention cases ("attention": "cross") carry "cross_text" as well: the keys'
and values' text, one line for every sequence or one per line of "text". Their program
draws y = torch.randn(B, T_k, C) right after x, projects Q from x and K, V from y, and
masks the keys of y's pad tokens; their shape has "T_k" and "key_lengths" and their
tensors "y". A causal mask is never combined with cross-attention.

preset_cases.json is an object of cases named after the preset and the variant its check
computes ("saturation scale=sqrt-dk"): "text", "config", "tokens" (B × T, <pad>-padded),
"std_scores", "std_logits", "figures" (the statistics panel's: row/column sum ranges,
mean largest weight, mean entropy and its maximum in bits, choice and saturated rows,
NaN count), "row_sums" (B,H,T), "weights" (B,H,T,T_k), "overrides" (a token's designed
vector) and, for the coreference lessons, "lesson" (the pronoun's row). Those cases use
embedding mode "table" (a token's vector = torch.randn(C) from a generator seeded by
splitmix64(seed ^ splitmix64(FNV-1a(token)))) and the sinusoidal encoding where the
preset does, and port core/lab/presets.cpp's designed vectors (shortest solutions in double).

"logits" is what goes into the softmax (after ALiBi and soft-capping; without the
sink's column): masked_fill(L, M, fill) for the stage "before-softmax", the unmasked L
for "after-softmax". The stds are taken before masking. Every float is a float32 value
written with repr() of the equal double, so it reads back bit for bit. Non-finite
values: NaN is written as null, +inf as the string "inf" and -inf as the string "-inf".
"""

import json
import math
import os

import torch
import torch.nn as nn
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
OUTPUT = os.path.join(HERE, "reference_cases.json")
MASK64 = 0xFFFFFFFFFFFFFFFF
PAD = "<pad>"  # kPadToken

# The switches of newer models' attention, at the values that leave the classic formula:
# kv_heads 0 = as many as heads, softcap/window/sink None = off. The presets before them
# use none, and preset_cases.json writes only the keys a case switches (see preset_cases).
MODERN = {
    "kv_heads": 0,
    "qk_norm": False,
    "rope_theta": 10000.0,
    "alibi": False,
    "softcap": None,
    "window": None,
    "sink": None,
}
BASE = {
    "seed": 42,
    "d_model": 16,
    "heads": 4,
    "scale": "sqrt-dk",
    "temperature": 1.0,
    "axis": "keys",
    "mask": "none",
    "mask_fill": "neg-inf",
    "mask_stage": "before-softmax",
    "head_split": "transpose",
    "padding_mask": True,
    "attention": "self",
    **MODERN,
}
FIXED = {"tokenizer": "spaces", "embedding": "torch", "positional": "none"}

# B=2, T=5: T differs from B, H and d_k, so a swapped index cannot pass unnoticed.
TEXT_2x5 = "the cat sat on mats\na dog ran to us"
TEXT_2x4 = "a b c d\ne f g h"
TEXT_3x5 = "a b c d e\nf g h i j\nk l m n o"
TEXT_PAD = "a b c d e\nf g h"  # lengths 5, 3
TEXT_PAD3 = "a b c d e f\ng h\ni j k l"  # lengths 6, 2, 4
TEXT_SHORT = "a\nb"  # T = 1


def mix(z):
    """splitmix64, as embedding mode "table" seeds a token's generator."""
    z = (z + 0x9E3779B97F4A7C15) & MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


def fnv1a(token):
    """FNV-1a over the token's UTF-8 bytes."""
    h = 0xCBF29CE484222325
    for byte in token.encode("utf-8"):
        h = ((h ^ byte) * 0x100000001B3) & MASK64
    return h


def token_vector(seed, token, C):
    """Embedding mode "table": torch.randn(C) from a generator seeded by (seed, token)."""
    generator = torch.Generator().manual_seed(mix(seed ^ mix(fnv1a(token))))
    return torch.randn(C, generator=generator)


def sinusoidal(T, C):
    """Vaswani et al. 2017, 3.5: PE(pos, 2i) = sin(pos / 10000^(2i/C)), PE(pos, 2i+1) = cos(…),
    in double, then float32."""
    pos = torch.arange(T, dtype=torch.float64)[:, None]
    pair = torch.div(torch.arange(C), 2, rounding_mode="floor").to(torch.float64)
    angle = pos / torch.pow(10000.0, 2 * pair / C)[None, :]
    odd = (torch.arange(C) % 2 == 1)[None, :]
    return torch.where(odd, torch.cos(angle), torch.sin(angle)).float()


def table_embedding(lines, T, cfg, overrides):
    """x (B, T, C) in mode "table": a token's hand-set vector or its table vector, <pad> to T."""
    C = cfg["d_model"]
    rows = []
    for tokens in lines:
        padded = tokens + [PAD] * (T - len(tokens))
        rows.append(torch.stack([overrides[t].float() if t in overrides
                                 else token_vector(cfg["seed"], t, C)
                                 for t in padded]))
    return torch.stack(rows)


def rms_norm(x, eps=1e-6):
    """QK-norm: HF modeling_qwen3's Qwen3RMSNorm over the last axis, its weight all ones."""
    weight = torch.ones(x.shape[-1])
    return weight * (x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps))


def rotary(length, d_k, theta):
    """cos and sin (length, d_k) as HF modeling_llama's LlamaRotaryEmbedding makes them for
    positions 0 … length-1: the frequencies as its float32 matmul, emb = cat(freqs, freqs)."""
    inv_freq = 1.0 / (theta ** (torch.arange(0, d_k, 2, dtype=torch.int64).float() / d_k))
    position_ids = torch.arange(length)[None, :]
    inv_freq_expanded = inv_freq[None, :, None].float().expand(1, -1, 1)
    position_ids_expanded = position_ids[:, None, :].float()
    freqs = (inv_freq_expanded @ position_ids_expanded).transpose(1, 2)  # (1, length, d_k/2)
    emb = torch.cat((freqs, freqs), dim=-1)
    return emb.cos()[0], emb.sin()[0]


def rotate_half(x):
    x1, x2 = x[..., : x.shape[-1] // 2], x[..., x.shape[-1] // 2:]
    return torch.cat((-x2, x1), dim=-1)


def repeat_kv(t, n_rep):
    """HF's repeat_kv: (B, K, T_k, d_k) → (B, K·n_rep, T_k, d_k), query head h reading K/V
    head h // n_rep. For n_rep 1 the tensor itself, not a copy: the matmul then sees
    today's strides."""
    if n_rep == 1:
        return t
    B, heads, length, d_k = t.shape
    return t[:, :, None, :, :].expand(B, heads, n_rep, length, d_k).reshape(
        B, heads * n_rep, length, d_k)


def alibi_slopes(H):
    """m_h, as HF modeling_bloom's build_alibi_tensor: 2^(-8/n)^h for the n = largest power of
    two <= H, then every other slope of 2n for the heads left over."""
    closest_power_of_2 = 2 ** math.floor(math.log2(H))
    base = torch.tensor(2 ** (-(2 ** -(math.log2(closest_power_of_2) - 3))), dtype=torch.float32)
    powers = torch.arange(1, 1 + closest_power_of_2, dtype=torch.int32)
    slopes = torch.pow(base, powers)
    if closest_power_of_2 != H:
        extra_base = torch.tensor(2 ** (-(2 ** -(math.log2(2 * closest_power_of_2) - 3))),
                                  dtype=torch.float32)
        num_remaining_heads = min(closest_power_of_2, H - closest_power_of_2)
        extra_powers = torch.arange(1, 1 + 2 * num_remaining_heads, 2, dtype=torch.int32)
        slopes = torch.cat([slopes, torch.pow(extra_base, extra_powers)], dim=0)
    return slopes


def reference(text, cfg, cross_text=None, overrides=None):
    """The reference program; returns the tensors, the shape, std(S), std(S·scale/τ) and
    std(L) after ALiBi and soft-capping (before masking) of one case.

    cfg["embedding"] "torch" (the default here) draws x = torch.randn(B, T, C) right after
    manual_seed; "table" looks each token up (table_embedding) and draws nothing before
    the layers. cfg["positional"] "sinusoidal" adds the encoding to x (and y); "rope" adds
    nothing. The mask M (B, 1, T, T_k; true = masked) is returned as tensors["mask"].

    The switches of MODERN act in this order (H query heads, K = kv_heads or H):
    W_k and W_v project to K·d_k, and K and V split into K heads; qk_norm divides every row of
    Q_h and K_h by its RMS (Qwen3); "rope" then rotates Q_h and K_h (Llama; query i at
    position i, key j at j); K/V head h // (H/K) serves query head h (repeat_kv); after
    L = S·scale/τ, alibi subtracts m_h·|i − j| (BLOOM) and softcap c makes L = c·tanh(L/c)
    (Gemma 2); window W masks i − j >= W, and j − i >= W too without the causal mask, into M;
    sink s adds a logit s to every row's softmax over the keys and drops its column
    (gpt-oss), its weight returned as tensors["sink_weights"]."""
    overrides = overrides or {}
    lines = [line.split() for line in text.split("\n") if line.split()]
    lengths = torch.tensor([len(tokens) for tokens in lines])
    B, T = len(lines), int(lengths.max())
    cross = cfg["attention"] == "cross"
    if cross:
        assert cfg["mask"] == "none", "no causal mask in cross-attention"
        key_lines = [line.split() for line in cross_text.split("\n") if line.split()]
        if len(key_lines) == 1:
            key_lines = key_lines * B  # one line serves every sequence
        assert len(key_lines) == B
        key_lengths = torch.tensor([len(tokens) for tokens in key_lines])
    else:
        key_lengths = lengths
    Tk = int(key_lengths.max())
    C, H = cfg["d_model"], cfg["heads"]
    d_k = C // H
    Hkv = cfg["kv_heads"] or H  # K
    assert H % Hkv == 0, "the K/V heads must divide the query heads"
    tau = cfg["temperature"]

    torch.manual_seed(cfg["seed"])
    if cfg.get("embedding", "torch") == "torch":
        x = torch.randn(B, T, C)
        y = torch.randn(B, Tk, C) if cross else x  # the keys' and values' sequence
    else:
        x = table_embedding(lines, T, cfg, overrides)
        y = table_embedding(key_lines, Tk, cfg, overrides) if cross else x
    if cfg.get("positional", "none") == "sinusoidal":
        x = x + sinusoidal(T, C)
        y = y + sinusoidal(Tk, C) if cross else x
    # Drawn in this order; with K = H, W_k and W_v are (C, C) and the draws today's.
    Wq = nn.Linear(C, C)
    Wk, Wv = nn.Linear(C, Hkv * d_k), nn.Linear(C, Hkv * d_k)
    Wo = nn.Linear(C, C)

    def split(t, length, heads):
        if cfg["head_split"] == "transpose":
            return t.view(B, length, heads, d_k).transpose(1, 2)
        return t.view(B, heads, length, d_k)  # the classic bug

    with torch.no_grad():
        q, k, v = Wq(x), Wk(y), Wv(y)
        Q, K, V = split(q, T, H), split(k, Tk, Hkv), split(v, Tk, Hkv)
        if cfg["qk_norm"]:  # over d_k: the same d_k-chunks of q and k whichever split
            Q, K = rms_norm(Q), rms_norm(K)
        if cfg.get("positional", "none") == "rope":
            assert d_k % 2 == 0, "RoPE rotates pairs"
            cos, sin = rotary(T, d_k, cfg["rope_theta"])
            Q = Q * cos + rotate_half(Q) * sin
            cos, sin = rotary(Tk, d_k, cfg["rope_theta"])  # the keys' own positions
            K = K * cos + rotate_half(K) * sin
        K, V = repeat_kv(K, H // Hkv), repeat_kv(V, H // Hkv)
        S = Q @ K.transpose(-2, -1)  # (B,H,T,T_k)
        scale = {"sqrt-dk": 1 / math.sqrt(d_k), "none": 1, "sqrt-dmodel": 1 / math.sqrt(C)}[
            cfg["scale"]
        ]
        L = S * scale / tau
        std_logits = L.std().item()  # the classic figure, before ALiBi and the cap
        if cfg["alibi"]:
            dist = (torch.arange(T)[:, None] - torch.arange(Tk)[None, :]).abs().float()
            L = L - alibi_slopes(H)[None, :, None, None] * dist[None, None, :, :]
        if cfg["softcap"] is not None:
            c = cfg["softcap"]
            L = c * torch.tanh(L / c)

        M = torch.zeros(B, 1, T, Tk, dtype=torch.bool)  # true = masked
        if cfg["mask"] == "causal":
            M = M | torch.triu(torch.ones(T, T, dtype=torch.bool), 1)  # key j > query i
        if cfg["window"] is not None:
            i, j = torch.arange(T)[:, None], torch.arange(Tk)[None, :]
            outside = i - j >= cfg["window"]  # too far back
            if cfg["mask"] != "causal":
                outside = outside | (j - i >= cfg["window"])  # too far ahead
            M = M | outside
        if cfg["padding_mask"]:
            pad_key = torch.arange(Tk)[None, :] >= key_lengths[:, None]  # (B,T_k)
            M = M | pad_key[:, None, None, :]
        fill = {"neg-inf": float("-inf"), "-1e9": -1e9}[cfg["mask_fill"]]
        dim = {"keys": -1, "queries": -2, "batch": 0}[cfg["axis"]]
        logits = L.masked_fill(M, fill) if cfg["mask_stage"] == "before-softmax" else L
        if cfg["sink"] is None:
            P = F.softmax(logits, dim=dim)
            sink_weights = torch.zeros(B, H, T)
        else:
            # HF modeling_gpt_oss's eager attention: a column of s, the row's max taken off
            # (as it does, so rounding matches), the softmax, the column dropped again.
            assert cfg["axis"] == "keys", "a sink joins a row over the keys"
            sinks = torch.full((B, H, T, 1), float(cfg["sink"]))
            combined = torch.cat([logits, sinks], dim=-1)
            combined = combined - combined.max(dim=-1, keepdim=True).values
            probs = F.softmax(combined, dim=-1)
            P, sink_weights = probs[..., :-1], probs[..., -1]
        if cfg["mask_stage"] == "after-softmax":
            P = P.masked_fill(M, 0)
        heads_out = P @ V
        merged = heads_out.transpose(1, 2).reshape(B, T, C)
        O = Wo(merged)

    tensors = {"x": x}
    if cross:
        tensors["y"] = y
    for name, layer in (("wq", Wq), ("wk", Wk), ("wv", Wv), ("wo", Wo)):
        tensors[name + ".weight"] = layer.weight.detach()
        tensors[name + ".bias"] = layer.bias.detach()
    tensors.update(q=q, k=k, v=v, scores=S, logits=logits, weights=P, sink_weights=sink_weights,
                   merged=merged, output=O)
    tensors["mask"] = M
    shape = {"B": B, "T": T, "C": C, "H": H, "kv_heads": Hkv, "d_k": d_k,
             "lengths": lengths.tolist()}
    if cross:
        shape.update(T_k=Tk, key_lengths=key_lengths.tolist())
    return tensors, shape, S.std().item(), std_logits, L.std().item()


def encode(value):
    """A float32 as JSON: the exact double, null for NaN, "inf"/"-inf" for infinities."""
    if math.isnan(value):
        return None
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    return value


def to_json(tensor):
    assert tensor.dtype == torch.float32
    nested = tensor.tolist()  # float32 → the equal double, so repr() round-trips

    def walk(item):
        return [walk(i) for i in item] if isinstance(item, list) else encode(item)

    return walk(nested)


def case_name(text_tag, cfg):
    """The tag and every key that differs from BASE or FIXED (positional "rope"), in their
    order: a case with no new switch keeps its name."""
    parts = [text_tag] if text_tag else []
    defaults = dict(BASE, **FIXED)
    for key in defaults:
        value = cfg.get(key, defaults[key])
        if value != defaults[key]:
            parts.append(f"{key}={str(value).lower() if isinstance(value, bool) else value}")
    return " ".join(parts) if parts else "base"


def config_of(cfg):
    """The case's "config": BASE's keys, then FIXED's, a case's positional overriding FIXED's."""
    assert set(cfg) <= set(BASE) | set(FIXED), set(cfg) - set(BASE) - set(FIXED)
    config = {key: cfg[key] for key in BASE}
    config.update({key: cfg.get(key, value) for key, value in FIXED.items()})
    return config


def cases():
    """(tag, text, overrides): one switch at a time from BASE, then combinations."""
    one_at_a_time = [
        {},
        {"scale": "none"},
        {"scale": "sqrt-dmodel"},
        {"temperature": 0.5},
        {"temperature": 3.0},
        {"axis": "queries"},
        {"axis": "batch"},
        {"mask": "causal"},
        {"mask": "causal", "mask_fill": "-1e9"},
        {"mask": "causal", "mask_stage": "after-softmax"},
        {"mask": "causal", "mask_stage": "after-softmax", "mask_fill": "-1e9"},
        {"head_split": "view"},
        {"padding_mask": False},
        {"seed": 0},
        {"seed": 2**32 + 5},
        {"d_model": 12, "heads": 3},  # fan_in 12: the FMA of uniform_ matters
        {"d_model": 10, "heads": 2},  # d_k = 5, 1/sqrt(5) inexact
        {"heads": 1},
        {"heads": 16},  # d_k = 1
    ]
    for overrides in one_at_a_time:
        yield "B=2 T=5", TEXT_2x5, overrides

    yield "B=3 T=5", TEXT_3x5, {"axis": "batch"}
    yield "B=3 T=5", TEXT_3x5, {"axis": "batch", "mask": "causal"}
    yield "B=3 T=5", TEXT_3x5, {"axis": "batch", "mask": "causal", "mask_fill": "-1e9"}
    yield "B=2 T=5", TEXT_2x5, {"axis": "queries", "mask": "causal", "head_split": "view"}
    yield "B=2 T=5", TEXT_2x5, {
        "axis": "queries",
        "mask": "causal",
        "head_split": "view",
        "mask_stage": "after-softmax",
    }
    yield "B=2 T=5", TEXT_2x5, {"temperature": 0.5, "scale": "none", "mask": "causal"}
    yield "B=2 T=5", TEXT_2x5, {"temperature": 3.0, "scale": "sqrt-dmodel", "axis": "queries"}
    yield "B=2 T=5", TEXT_2x5, {
        "d_model": 12,
        "heads": 3,
        "head_split": "view",
        "mask": "causal",
        "mask_fill": "-1e9",
        "seed": 0,
    }
    yield "B=2 T=5", TEXT_2x5, {"d_model": 10, "heads": 2, "seed": 2**32 + 5, "axis": "queries"}
    yield "B=2 T=4", TEXT_2x4, {"heads": 4, "d_model": 16, "head_split": "view"}  # T = d_k

    # Padding: lengths 5 and 3, the pad keys masked or not.
    padded = [
        {},
        {"padding_mask": False},
        {"mask": "causal"},
        {"mask": "causal", "padding_mask": False},
        {"mask": "causal", "mask_fill": "-1e9"},
        {"mask_stage": "after-softmax"},
        {"mask": "causal", "mask_stage": "after-softmax", "mask_fill": "-1e9"},
        # softmax over the queries: a pad key's column is fully masked → NaN / uniform.
        {"axis": "queries"},
        {"axis": "queries", "mask_fill": "-1e9"},
        {"axis": "queries", "mask": "causal", "mask_stage": "after-softmax"},
        # softmax over the batch: j > i is masked in every sequence → NaN / 1/B.
        {"axis": "batch", "mask": "causal"},
        {"axis": "batch", "mask": "causal", "mask_fill": "-1e9"},
        {"head_split": "view", "mask": "causal"},
    ]
    for overrides in padded:
        yield "B=2 T=5 padded", TEXT_PAD, overrides
    yield "B=3 T=6 padded", TEXT_PAD3, {"mask": "causal", "d_model": 12, "heads": 3}
    yield "B=3 T=6 padded", TEXT_PAD3, {"axis": "batch", "padding_mask": True}
    yield "B=3 T=6 padded", TEXT_PAD3, {"axis": "batch", "mask_fill": "-1e9", "seed": 0}

    # randn below 16 values (double Box–Muller) and a T = 1 batch.
    yield "B=1 T=3", "a b c", {"d_model": 4, "heads": 2}  # x has 12 values
    yield "B=1 T=3", "a b c", {"d_model": 5, "heads": 1, "mask": "causal"}  # 15, odd
    yield "B=2 T=1", TEXT_SHORT, {"heads": 2}
    yield "B=2 T=1", TEXT_SHORT, {"axis": "queries", "mask": "causal"}
    # A wider head count and d_model.
    yield "B=2 T=7", "a b c d e f g\nh i j k l m n", {"d_model": 32, "heads": 8, "mask": "causal"}

    # Cross-attention: queries from the text, keys and values from a second one, T_q ≠ T_k.
    cross = {"attention": "cross"}
    kv_one = ("p q r", )  # one line, every sequence
    kv_two = ("p q r s t u v\nw x", )  # one per sequence, lengths 7 and 2
    for overrides in ({}, {"axis": "queries"}, {"axis": "batch"}, {"scale": "none"},
                      {"head_split": "view"}, {"mask_stage": "after-softmax"},
                      {"padding_mask": False}, {"heads": 1, "temperature": 0.5}):
        yield "cross B=2 T=5 T_k=3", (TEXT_2x5, ) + kv_one, dict(cross, **overrides)
    for overrides in ({}, {"axis": "queries"}, {"axis": "queries", "mask_fill": "-1e9"},
                      {"axis": "batch", "mask_stage": "after-softmax"}, {"head_split": "view"}):
        yield "cross B=2 T=5 T_k=7 padded", (TEXT_PAD, ) + kv_two, dict(cross, **overrides)

    # The switches of newer models' attention (MODERN): each alone, then with the classic ones.
    modern = [
        # Grouped-query attention: 2 K/V heads for 4 query heads, then one (multi-query).
        {"kv_heads": 2},
        {"kv_heads": 1},
        {"kv_heads": 2, "head_split": "view"},  # K and V viewed as (B, K, T_k, d_k)
        {"kv_heads": 2, "mask": "causal"},
        {"kv_heads": 2, "d_model": 32, "heads": 8},  # 4 query heads share a K/V head
        {"qk_norm": True},
        {"qk_norm": True, "scale": "none"},  # unit-RMS rows: |S| <= d_k without the scale
        {"qk_norm": True, "kv_heads": 2},
        {"positional": "rope"},
        {"positional": "rope", "rope_theta": 100.0},  # every pair turns far within T = 5
        {"positional": "rope", "qk_norm": True, "kv_heads": 2, "mask": "causal"},
        {"positional": "rope", "head_split": "view"},  # positions along the bugged T axis
        {"alibi": True},
        {"alibi": True, "mask": "causal"},
        {"alibi": True, "d_model": 12, "heads": 3},  # not a power of two: the extra slopes
        {"alibi": True, "d_model": 32, "heads": 8},
        {"alibi": True, "d_model": 24, "heads": 6},  # H=4's 4 slopes, then 2 of H=8's
        {"alibi": True, "axis": "queries"},
        {"softcap": 1.0},
        {"softcap": 0.5, "scale": "none"},  # large logits: the cap saturates
        {"softcap": 2.0, "mask": "causal", "mask_stage": "after-softmax"},
        {"softcap": 1.0, "alibi": True},  # ALiBi first, then the cap
        {"window": 2},  # no causal mask: two-sided
        {"window": 2, "mask": "causal"},
        {"window": 1, "mask": "causal"},  # only the diagonal left: every weight 1
        {"window": 3, "mask": "causal", "mask_fill": "-1e9"},
        {"window": 2, "mask": "causal", "mask_stage": "after-softmax"},
        {"window": 2, "axis": "queries"},
        {"sink": 0.0},
        {"sink": 2.0, "mask": "causal"},
        {"sink": -1.0, "mask": "causal", "mask_stage": "after-softmax"},
        {"sink": 5.0, "window": 1, "mask": "causal"},  # one key against a large sink
        # All at once, as a recent decoder has them.
        {"kv_heads": 2, "qk_norm": True, "positional": "rope", "mask": "causal", "window": 3,
         "softcap": 1.5, "sink": 0.5},
    ]
    for overrides in modern:
        yield "B=2 T=5", TEXT_2x5, overrides
    yield "B=2 T=7", "a b c d e f g\nh i j k l m n", {
        "d_model": 32, "heads": 8, "mask": "causal", "alibi": True, "softcap": 2.0, "sink": 1.0}
    # Padding: lengths 5 and 3; the window and the sink with pad keys masked.
    for overrides in ({"window": 2}, {"window": 2, "mask": "causal"}, {"sink": 1.0},
                      {"sink": 1.0, "mask": "causal"}, {"kv_heads": 2, "mask": "causal"},
                      {"kv_heads": 1, "alibi": True, "window": 2, "sink": -0.5, "mask": "causal",
                       "mask_stage": "after-softmax", "mask_fill": "-1e9"}):
        yield "B=2 T=5 padded", TEXT_PAD, overrides
    # Cross-attention: the keys rotated at their own positions 0 … T_k-1, the window two-sided
    # (query 4 of T_k=3 keys has none within 2: a fully masked row).
    for overrides in ({"kv_heads": 2}, {"positional": "rope"},
                      {"positional": "rope", "qk_norm": True, "kv_heads": 2},
                      {"window": 3}, {"window": 2}, {"alibi": True}):
        yield "cross B=2 T=5 T_k=3", (TEXT_2x5, ) + kv_one, dict(cross, **overrides)
    for overrides in ({"kv_heads": 1, "positional": "rope"}, {"window": 2, "mask_fill": "-1e9"},
                      {"sink": 1.0}):
        yield "cross B=2 T=5 T_k=7 padded", (TEXT_PAD, ) + kv_two, dict(cross, **overrides)


def article_check():
    """The seed article: seed 42, B=2, T=4, C=16, H=1 → std(S) 1.1888, std(S/4) 0.2972."""
    cfg = dict(BASE, heads=1)
    tensors, _, std_s, std_l, _ = reference(TEXT_2x4, cfg)
    assert f"{std_s:.4f}" == "1.1888", std_s
    assert f"{std_l:.4f}" == "0.2972", std_l
    # TORCH_PARITY.md section 5, the first draws.
    assert tensors["x"][0, 0, :3].tolist() == [1.9269152879714966, 1.4872840642929077,
                                                0.9007171988487244]
    assert tensors["wq.weight"][0, :3].tolist() == [0.2096174657344818, -0.0496160089969635,
                                                    0.21509918570518494]
    assert tensors["wq.bias"][:3].tolist() == [0.003510594367980957, 0.22745224833488464,
                                               -0.21301287412643433]
    return cfg


# ---------------------------------------------------------------------------------------
# The presets (core/lab/presets.cpp): each lesson's request run through the same reference
# program, with embedding mode "table" and the sinusoidal encoding where the preset has
# them, and the figures and weights its check in tests/ui/panels/tst_presets.cpp quotes.

PRESET_OUTPUT = os.path.join(HERE, "preset_cases.json")

# Config's defaults (core/engine/options.h), as the CLI spells them; tokenizer "auto" splits
# these English texts at the spaces as well, and the test compares the tokens.
DEFAULTS = dict(BASE, d_model=64, heads=4, embedding="table", positional="sinusoidal",
                tokenizer="auto")
# The designed lessons: table vectors exactly, so no positional encoding.
DESIGNED = dict(DEFAULTS, d_model=16, heads=2, positional="none", tokenizer="spaces")

SENTENCE = "The cat sat on the mat because it was tired ."
LONG_SENTENCE = ("The cat sat on the mat because it was tired , and the dog slept under the "
                 "old table all day .")
ROPE_TEXT = "a b c a b d a b"  # the pair (a, b) at 0, 3 and 6


def scale_of(cfg):
    d_k = cfg["d_model"] // cfg["heads"]
    return {"sqrt-dk": 1 / math.sqrt(d_k), "none": 1.0,
            "sqrt-dmodel": 1 / math.sqrt(cfg["d_model"])}[cfg["scale"]] / cfg["temperature"]


def query_and_key_layers(cfg):
    """W_q and W_k as the engine draws them in mode "table": right after manual_seed."""
    torch.manual_seed(cfg["seed"])
    wq, wk = nn.Linear(cfg["d_model"], cfg["d_model"]), nn.Linear(cfg["d_model"], cfg["d_model"])
    return ((wq.weight.detach().double(), wq.bias.detach().double()),
            (wk.weight.detach().double(), wk.bias.detach().double()))


def shortest_solution(G, rhs):
    """The shortest x with G x = rhs: Gᵀ (G Gᵀ)⁻¹ rhs."""
    return (G.T @ torch.linalg.solve(G @ G.T, rhs)).float()


def design_antecedent(cfg, tokens, pronoun, antecedent, weight):
    """Exercise 3: the vector for `antecedent` whose key takes `weight` of `pronoun`'s
    softmax row in every head, the other tokens keeping their table vectors."""
    C, H = cfg["d_model"], cfg["heads"]
    d_k, scale = C // H, scale_of(cfg)
    (Wq, bq), (Wk, bk) = query_and_key_layers(cfg)
    table = {t: token_vector(cfg["seed"], t, C).double() for t in tokens}
    q = Wq @ table[pronoun] + bq
    G, rhs = torch.zeros(H, C, dtype=torch.float64), torch.zeros(H, dtype=torch.float64)
    for h in range(H):
        rows = slice(h * d_k, (h + 1) * d_k)
        qh, Wkh, bkh = q[rows], Wk[rows], bk[rows]
        others = torch.stack([scale * qh.dot(Wkh @ table[t] + bkh)
                              for t in tokens if t != antecedent])
        # weight = e^l / (e^l + Σ e^l_j)  ⇔  l = logit(weight) + log Σ e^l_j
        logit = math.log(weight / (1 - weight)) + torch.logsumexp(others, 0)
        G[h] = Wkh.T @ qh
        rhs[h] = logit / scale - qh.dot(bkh)
    return shortest_solution(G, rhs)


def design_alignment(cfg, queries, keys, aligned, share):
    """Cross-attention: key j's vector, so that each query gives the keys aligned with it
    `share` of its weight together (the others a logit of 0), in every head."""
    C, H = cfg["d_model"], cfg["heads"]
    d_k, scale = C // H, scale_of(cfg)
    (Wq, bq), (Wk, bk) = query_and_key_layers(cfg)
    Tq, Tk = len(queries), len(keys)
    G = torch.zeros(H * Tq, C, dtype=torch.float64)
    offset = torch.zeros(H * Tq, dtype=torch.float64)
    target = []
    for i, token in enumerate(queries):
        q = Wq @ token_vector(cfg["seed"], token, C).double() + bq
        n = sum(i in rows for rows in aligned)
        # n aligned keys at logit t among T_k: n e^t / (n e^t + T_k − n) = share
        target.append(math.log(share * (Tk - n) / ((1 - share) * n)) if n else 0.0)
        for h in range(H):
            rows = slice(h * d_k, (h + 1) * d_k)
            G[h * Tq + i] = scale * (Wk[rows].T @ q[rows])
            offset[h * Tq + i] = scale * q[rows].dot(bk[rows])
    vectors = {}
    for j, key in enumerate(keys):
        rhs = -offset.clone()
        for i in aligned[j]:
            for h in range(H):
                rhs[h * Tq + i] += target[i]
        vectors[key] = shortest_solution(G, rhs)
    return vectors


def figures(P, M):
    """What the statistics panel shows (core/engine/statistics.h) over every (b, h) row of P:
    NaN rows left out of the means and ranges, as the engine leaves them out."""
    p = P.double()
    B, H, T, Tk = P.shape
    unmasked = (~M).sum(-1).expand(B, H, T).double()
    row_sums, col_sums = p.sum(-1), p.sum(-2)
    has_nan = torch.isnan(p).any(-1)
    row_max = P.max(-1).values.double()
    plogp = torch.where(p > 0, p * torch.log2(p), torch.zeros_like(p)).sum(-1)
    # A row that is not a distribution is measured as p / its sum: H(p/s) = H(p)/s + log2 s.
    entropy = -plogp / row_sums + torch.log2(row_sums)
    entropy_max = torch.where(unmasked > 0, torch.log2(unmasked.clamp(min=1)), 0.0)
    choice = ~has_nan & (unmasked > 1)
    ok = ~has_nan

    def finite(t):
        return t[torch.isfinite(t)]

    return {
        "row_sum_min": finite(row_sums).min().item(), "row_sum_max": finite(row_sums).max().item(),
        "col_sum_min": finite(col_sums).min().item(), "col_sum_max": finite(col_sums).max().item(),
        "mean_row_max": row_max[ok].mean().item(),
        "mean_entropy": entropy[ok].mean().item(),
        "mean_entropy_max": entropy_max.mean().item(),
        "choice_rows": int(choice.sum()),
        "saturated_rows": int((choice & (row_max >= 0.99)).sum()),
        "nan_count": int(torch.isnan(p).sum()),
    }


def preset_plan():
    """(case name, text, cfg, cross text, overrides, lesson): every preset as
    core/lab/presets.cpp makes it, and the variants its check computes."""
    article = dict(BASE, heads=1, tokenizer="spaces", embedding="torch", positional="none")
    article_text = "我 喜欢 这个 产品\n它 的 设计 很好"
    yield "article", article_text, article, None, {}, None
    yield "article d_model=512 scale=none", article_text, dict(article, d_model=512,
                                                              scale="none"), None, {}, None
    saturation = dict(DEFAULTS, d_model=512, heads=1, scale="none")
    yield "saturation", SENTENCE, saturation, None, {}, None
    yield "saturation scale=sqrt-dk", SENTENCE, dict(saturation, scale="sqrt-dk"), None, {}, None
    yield "wrong-axis-queries", SENTENCE, dict(DEFAULTS, axis="queries"), None, {}, None
    yield ("wrong-axis-batch", "The cat sat on the mat .\nA dog slept under the table .",
           dict(DEFAULTS, axis="batch"), None, {}, None)
    yield "causal-decoder", SENTENCE, dict(DEFAULTS, mask="causal"), None, {}, None
    yield "head-split-bug", SENTENCE, dict(DEFAULTS, head_split="view"), None, {}, None
    yield ("mask-after-softmax", SENTENCE,
           dict(DEFAULTS, mask="causal", mask_stage="after-softmax"), None, {}, None)
    fully = dict(DEFAULTS, tokenizer="spaces", axis="queries")
    fully_text = "The cat sat on the mat .\nThe cat slept ."
    yield "fully-masked-row", fully_text, fully, None, {}, None
    yield ("fully-masked-row mask_fill=-1e9", fully_text, dict(fully, mask_fill="-1e9"), None,
           {}, None)

    cross = dict(DESIGNED, attention="cross")
    target, source = "我 爱 机器学习", "I love machine learning"
    # I ← 我, love ← 爱, machine and learning ← 机器学习
    alignment = design_alignment(cross, target.split(), source.split(), [[0], [1], [2], [2]], 0.8)
    yield "cross-attention", target, cross, source, alignment, None
    # Seed 7 keeps the vectors designed for seed 42.
    yield "cross-attention seed=7", target, dict(cross, seed=7), source, alignment, None

    for name, text, pronoun, antecedent in (
            ("coreference", "猫 坐 在 垫子 上 因为 它 累 了", "它", "猫"),
            ("coreference-en", "The cat sat on the mat because it was tired", "it", "cat")):
        vector = design_antecedent(DESIGNED, text.split(), pronoun, antecedent, 0.8)
        lesson = (pronoun, antecedent)
        yield name, text, DESIGNED, None, {antecedent: vector}, lesson
        yield name + " seed=7", text, dict(DESIGNED, seed=7), None, {antecedent: vector}, lesson

    # Today's models' lessons: one switch on a classic preset's set-up each.
    gqa = dict(DEFAULTS, heads=8, kv_heads=2)
    yield "gqa", SENTENCE, gqa, None, {}, None
    rope = dict(DEFAULTS, tokenizer="spaces", heads=2, positional="rope")
    for name, cfg in (("rope-distance", rope),
                      ("rope-distance positional=sinusoidal", dict(rope, positional="sinusoidal")),
                      ("rope-distance positional=none", dict(rope, positional="none"))):
        yield name, ROPE_TEXT, cfg, None, {}, "rope"
    qk_norm = dict(saturation, qk_norm=True)
    yield "qk-norm", SENTENCE, qk_norm, None, {}, "max_logit"
    yield "qk-norm scale=sqrt-dk", SENTENCE, dict(qk_norm, scale="sqrt-dk"), None, {}, "max_logit"
    alibi = dict(DEFAULTS, heads=8, positional="none", alibi=True)
    yield "alibi", SENTENCE, alibi, None, {}, "distance"
    yield "alibi alibi=false", SENTENCE, dict(alibi, alibi=False), None, {}, "distance"
    softcap = dict(saturation, softcap=10.0)
    yield "softcap", SENTENCE, softcap, None, {}, None
    yield "softcap softcap=1", SENTENCE, dict(softcap, softcap=1.0), None, {}, None
    yield "softcap softcap=30", SENTENCE, dict(softcap, softcap=30.0), None, {}, None
    window = dict(DEFAULTS, mask="causal", window=4)
    yield "sliding-window", LONG_SENTENCE, window, None, {}, "first_column"
    yield ("sliding-window window=off", LONG_SENTENCE, dict(window, window=None), None, {},
           "first_column")
    sink = dict(DEFAULTS, mask="causal", sink=1.0)
    yield "attention-sink", SENTENCE, sink, None, {}, "first_column"
    yield "attention-sink sink=0", SENTENCE, dict(sink, sink=0.0), None, {}, "first_column"
    yield "attention-sink sink=off", SENTENCE, dict(sink, sink=None), None, {}, "first_column"


def todays_lesson(kind, tensors):
    """The numbers a lesson of today's switches quotes, from sequence 0 of the reference's
    tensors: "rope" the scores S of head h at (1, 0), (4, 3), (7, 6) (pair_scores, distance 1)
    and (4, 0), (7, 3) (far_scores, distance 4); "max_logit" the largest |L|; "distance" each
    head's mean weight at distance |i − j| = 0 … T − 1; "first_column" what each head's key 0
    receives in all (its column sum) and row 0's weight on it, the last row of head 0."""
    S, P = tensors["scores"][0].double(), tensors["weights"][0].double()
    H, T, _ = P.shape
    if kind == "rope":
        return {"pair_scores": [[S[h, i, j].item() for i, j in ((1, 0), (4, 3), (7, 6))]
                                for h in range(H)],
                "far_scores": [[S[h, i, j].item() for i, j in ((4, 0), (7, 3))]
                               for h in range(H)]}
    if kind == "max_logit":
        return {"max_abs_logit": tensors["logits"].abs().max().item()}
    if kind == "distance":
        dist = (torch.arange(T)[:, None] - torch.arange(T)[None, :]).abs()
        return {"distance_weights": [[P[h][dist == d].mean().item() for d in range(T)]
                                     for h in range(H)]}
    return {"first_column_sums": P[:, :, 0].sum(-1).tolist(),
            "row0_first": P[:, 0, 0].tolist(),
            "last_row": P[0, -1].tolist()}


def preset_cases():
    out = {}
    for name, text, cfg, cross_text, overrides, lesson in preset_plan():
        tensors, shape, std_s, std_l, std_c = reference(text, cfg, cross_text, overrides)
        P = tensors["weights"]
        # A config is written with the keys of MODERN it switches only, so that the presets
        # before them keep their cases as the file has always had them.
        switched = {key for key, value in MODERN.items() if cfg[key] != value}
        case = {
            "text": text,
            "config": {key: value for key, value in cfg.items()
                       if key not in MODERN or key in switched},
            "tokens": [line.split() + [PAD] * (shape["T"] - len(line.split()))
                       for line in text.split("\n") if line.split()],
            "std_scores": encode(std_s),
            "std_logits": encode(std_l),
            "figures": figures(P, tensors["mask"]),
            "row_sums": to_json(P.double().sum(-1).float()),  # (B, H, T)
            "weights": to_json(P),
            "overrides": {token: to_json(v) for token, v in overrides.items()},
        }
        if cross_text is not None:
            case["cross_text"] = cross_text
        if switched:
            # std(L) after ALiBi and the cap, and what a sink takes from each row (B, H, T).
            case["std_final_logits"] = encode(std_c)
            if cfg["sink"] is not None:
                case["sink_weights"] = to_json(tensors["sink_weights"])
        if isinstance(lesson, str):
            case["lesson"] = todays_lesson(lesson, tensors)
        elif lesson:
            # The pronoun's row: the antecedent's weight (mean over heads), the largest
            # weight of another key in any head, cos(merged output, V of the antecedent)
            # and the antecedent's norm.
            tokens = text.split()
            p, a = tokens.index(lesson[0]), tokens.index(lesson[1])
            row = P[0, :, p, :]
            out_p, v_a = tensors["merged"][0, p].double(), tensors["v"][0, a].double()
            case["lesson"] = {
                "pronoun": p, "antecedent": a,
                "antecedent_weight": row[:, a].double().mean().item(),
                "other_max": torch.cat([row[:, :a], row[:, a + 1:]], 1).max().item(),
                "cos_output_value": (out_p.dot(v_a) / (out_p.norm() * v_a.norm())).item(),
                "antecedent_norm": overrides[lesson[1]].double().norm().item(),
            }
        out[name] = case
    return out


def main():
    assert torch.__version__.startswith("1.13"), torch.__version__
    torch.set_num_threads(1)

    article = article_check()
    plan = [("article B=2 T=4 heads=1", (TEXT_2x4, None), article)]
    for tag, text, overrides in cases():
        cfg = dict(BASE, **overrides)  # positional, when a case sets it, after BASE's keys
        texts = text if isinstance(text, tuple) else (text, None)
        plan.append((case_name(tag, cfg), texts, cfg))

    out = []
    for name, (text, cross_text), cfg in plan:
        tensors, shape, std_s, std_l, std_c = reference(text, cfg, cross_text)
        case = {
            "name": name,
            "text": text,
            "config": config_of(cfg),
            "shape": shape,
            "tensors": {key: to_json(value) for key, value in tensors.items() if key != "mask"},
            "std_scores": encode(std_s),
            "std_logits": encode(std_l),
            "std_capped": encode(std_c),
        }
        if cross_text is not None:
            case["cross_text"] = cross_text
        out.append(case)

    names = [case["name"] for case in out]
    assert len(names) == len(set(names)), "case names must be unique"
    for key, values in (("scale", ("sqrt-dk", "none", "sqrt-dmodel")),
                        ("axis", ("keys", "queries", "batch")),
                        ("mask", ("none", "causal")),
                        ("mask_fill", ("neg-inf", "-1e9")),
                        ("mask_stage", ("before-softmax", "after-softmax")),
                        ("head_split", ("transpose", "view")),
                        ("padding_mask", (True, False)),
                        ("attention", ("self", "cross")),
                        ("kv_heads", (0, 2, 1)),
                        ("qk_norm", (False, True)),
                        ("positional", ("none", "rope")),
                        ("alibi", (False, True))):
        for value in values:
            assert any(case["config"][key] == value for case in out), (key, value)
    for key in ("softcap", "window", "sink"):  # off and on
        assert any(case["config"][key] is None for case in out), key
        assert any(case["config"][key] is not None for case in out), key

    with open(OUTPUT, "w", encoding="utf-8") as f:
        json.dump(out, f, allow_nan=False, separators=(",", ":"))
        f.write("\n")
    print(f"{len(out)} cases, {os.path.getsize(OUTPUT)} bytes → {os.path.relpath(OUTPUT)}")

    presets = preset_cases()
    with open(PRESET_OUTPUT, "w", encoding="utf-8") as f:
        json.dump(presets, f, allow_nan=False, ensure_ascii=False, separators=(",", ":"))
        f.write("\n")
    print(f"{len(presets)} preset cases, {os.path.getsize(PRESET_OUTPUT)} bytes → "
          f"{os.path.relpath(PRESET_OUTPUT)}")


if __name__ == "__main__":
    main()
