#!/usr/bin/python3
"""Writes reference_cases.json: PyTorch's numbers for AttnScope's reference program,
and preset_cases.json: the same program's numbers for every preset (see preset_cases).

Run with Debian's interpreter and its python3-torch 1.13 (no pip):

    /usr/bin/python3 tests/reference/gen_reference.py

Each case runs the program of ARCHITECTURE.md ("Reference semantics") literally, with
embedding mode "torch", tokenizer "spaces" (one sequence per line, one token per word)
and no positional encoding. Lines of different lengths are padded to T; with
padding_mask on, the keys of the pad tokens are masked like a key_padding_mask, and
the mask M = causal OR pad-key follows the mask stage.

The file is a JSON list of cases:

    {"name": "...", "text": "...", "config": {... spelled as the CLI spells it ...},
     "shape": {"B", "T", "C", "H", "d_k", "lengths"},
     "tensors": {"x": (B,T,C), "wq.weight": (C,C) (out,in), "wq.bias": (C), ... "wo.bias",
                 "q", "k", "v": (B,T,C) nn.Linear outputs before the split,
                 "scores": (B,H,T,T) S, "logits": (B,H,T,T), "weights": (B,H,T,T) P,
                 "merged": (B,T,C) heads concatenated, "output": (B,T,C) O},
     "std_scores": torch.std(S), "std_logits": torch.std(S * scale / tau)}

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

"logits" is what goes into the softmax: masked_fill(L, M, fill) for the stage
"before-softmax", the unmasked L for "after-softmax". Both stds are taken before
masking. Every float is a float32 value written with repr() of the equal double, so
it reads back bit for bit. Non-finite values: NaN is written as null, +inf as the
string "inf" and -inf as the string "-inf".
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


def reference(text, cfg, cross_text=None, overrides=None):
    """The reference program; returns the tensors and the figures of one case.

    cfg["embedding"] "torch" (the default here) draws x = torch.randn(B, T, C) right after
    manual_seed; "table" looks each token up (table_embedding) and draws nothing before
    the layers. cfg["positional"] "sinusoidal" adds the encoding to x (and y). The mask M
    (B, 1, T, T_k; true = masked) is returned as tensors["mask"]."""
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
    Wq, Wk, Wv, Wo = (nn.Linear(C, C) for _ in range(4))  # drawn in this order

    def split(t, length):
        if cfg["head_split"] == "transpose":
            return t.view(B, length, H, d_k).transpose(1, 2)
        return t.view(B, H, length, d_k)  # the classic bug

    with torch.no_grad():
        q, k, v = Wq(x), Wk(y), Wv(y)
        Q, K, V = split(q, T), split(k, Tk), split(v, Tk)
        S = Q @ K.transpose(-2, -1)  # (B,H,T,T_k)
        scale = {"sqrt-dk": 1 / math.sqrt(d_k), "none": 1, "sqrt-dmodel": 1 / math.sqrt(C)}[
            cfg["scale"]
        ]
        L = S * scale / tau

        M = torch.zeros(B, 1, T, Tk, dtype=torch.bool)  # true = masked
        if cfg["mask"] == "causal":
            M = M | torch.triu(torch.ones(T, T, dtype=torch.bool), 1)  # key j > query i
        if cfg["padding_mask"]:
            pad_key = torch.arange(Tk)[None, :] >= key_lengths[:, None]  # (B,T_k)
            M = M | pad_key[:, None, None, :]
        fill = {"neg-inf": float("-inf"), "-1e9": -1e9}[cfg["mask_fill"]]
        dim = {"keys": -1, "queries": -2, "batch": 0}[cfg["axis"]]
        if cfg["mask_stage"] == "before-softmax":
            logits = L.masked_fill(M, fill)
            P = F.softmax(logits, dim=dim)
        else:
            logits = L
            P = F.softmax(L, dim=dim).masked_fill(M, 0)
        heads_out = P @ V
        merged = heads_out.transpose(1, 2).reshape(B, T, C)
        O = Wo(merged)

    tensors = {"x": x}
    if cross:
        tensors["y"] = y
    for name, layer in (("wq", Wq), ("wk", Wk), ("wv", Wv), ("wo", Wo)):
        tensors[name + ".weight"] = layer.weight.detach()
        tensors[name + ".bias"] = layer.bias.detach()
    tensors.update(q=q, k=k, v=v, scores=S, logits=logits, weights=P, merged=merged, output=O)
    tensors["mask"] = M
    shape = {"B": B, "T": T, "C": C, "H": H, "d_k": d_k, "lengths": lengths.tolist()}
    if cross:
        shape.update(T_k=Tk, key_lengths=key_lengths.tolist())
    return tensors, shape, S.std().item(), L.std().item()


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
    parts = [text_tag] if text_tag else []
    for key in BASE:
        if cfg[key] != BASE[key]:
            value = cfg[key]
            parts.append(f"{key}={str(value).lower() if isinstance(value, bool) else value}")
    return " ".join(parts) if parts else "base"


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


def article_check():
    """The seed article: seed 42, B=2, T=4, C=16, H=1 → std(S) 1.1888, std(S/4) 0.2972."""
    cfg = dict(BASE, heads=1)
    tensors, _, std_s, std_l = reference(TEXT_2x4, cfg)
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


def preset_cases():
    out = {}
    for name, text, cfg, cross_text, overrides, lesson in preset_plan():
        tensors, shape, std_s, std_l = reference(text, cfg, cross_text, overrides)
        P = tensors["weights"]
        case = {
            "text": text,
            "config": cfg,
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
        if lesson:
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
        cfg = dict(BASE, **overrides)
        texts = text if isinstance(text, tuple) else (text, None)
        plan.append((case_name(tag, cfg), texts, cfg))

    out = []
    for name, (text, cross_text), cfg in plan:
        tensors, shape, std_s, std_l = reference(text, cfg, cross_text)
        case = {
            "name": name,
            "text": text,
            "config": dict(cfg, **FIXED),
            "shape": shape,
            "tensors": {key: to_json(value) for key, value in tensors.items() if key != "mask"},
            "std_scores": encode(std_s),
            "std_logits": encode(std_l),
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
                        ("attention", ("self", "cross"))):
        for value in values:
            assert any(case["config"][key] == value for case in out), (key, value)

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
