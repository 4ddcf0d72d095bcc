#!/usr/bin/python3
"""Writes reference_cases.json: PyTorch's numbers for AttnScope's reference program.

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


def reference(text, cfg, cross_text=None):
    """The reference program; returns the tensors and the figures of one case."""
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
    x = torch.randn(B, T, C)  # embedding mode "torch"
    y = torch.randn(B, Tk, C) if cross else x  # the keys' and values' sequence
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
            "tensors": {key: to_json(value) for key, value in tensors.items()},
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


if __name__ == "__main__":
    main()
