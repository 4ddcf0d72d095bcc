#!/usr/bin/env python3
"""Tiny random GPT-2 checkpoints in Hugging Face's folder layout, and what a plain PyTorch
forward gives on them under every switch of the formula: tst_gpt2model's expected numbers.

The forward is written after Hugging Face's modeling_gpt2.py (eager attention) and llm.c's
train_gpt2.py: Conv1D weights [in, out] (y = x W + b); c_attn's 3C columns are Q, K, V;
heads split by view + transpose; S / sqrt(d_k); the causal mask; softmax over the keys;
LayerNorm with the config's epsilon; GELU's tanh form; positions from wpe; ln_f;
logits = h wte^T. The attention step takes the same switches as gen_reference.py's.

Run with /usr/bin/python3 (torch and numpy); writes tests/reference/gpt2/<name>/ (config.json,
model.safetensors, vocab.json, merges.txt or none for the real vocabulary, which the test
takes from tests/data/gpt2) and tests/reference/gpt2/<name>.json (the expected numbers).
"""
import json
import math
import os
import re

import torch
import torch.nn.functional as F

from todays_switches import attention_weights

from generation import generations
from head_scores import head_scores
from knock_out import head_importance, knock_out
from logit_lens import top5
from safetensors_file import write_safetensors

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "gpt2")
REAL_VOCAB = os.path.join(HERE, "..", "data", "gpt2")

TEXTBOOK = {"scale": "sqrt-dk", "temperature": 1.0, "axis": "keys", "mask": "causal",
            "mask_fill": "neg-inf", "mask_stage": "before-softmax", "head_split": "transpose"}
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
    ("only_layer=1 scale=none", {"scale": "none"}, 1),
    ("only_layer=0 mask=none head_split=view", {"mask": "none", "head_split": "view"}, 0),
    ("knock_out=0.1,1.0", {"knock_out": "0.1,1.0"}, -1),
    ("knock_out=0.0 mean scale=none", {"knock_out": "0.0", "knock_out_mode": "mean",
                                        "scale": "none"}, -1),
    ("only_layer=1 axis=queries knock_out=0.1 mean",
     {"axis": "queries", "knock_out": "0.1", "knock_out_mode": "mean"}, 1),
    # Today's models' switches inside every layer ("what if GPT-2 saw only the last 3?").
    ("window=3", {"window": 3}, -1),
    ("window=2 mask=none", {"window": 2, "mask": "none"}, -1),
    ("softcap=2", {"softcap": 2.0}, -1),
    ("sink=0", {"sink": 0.0}, -1),
    ("sink=1 mask_stage=after-softmax", {"sink": 1.0, "mask_stage": "after-softmax"}, -1),
    ("only_layer=1 window=2 softcap=1 sink=-1", {"window": 2, "softcap": 1.0, "sink": -1.0}, 1),
]

# (case name, switches, only_layer, layer, head): the heads whose stages the trace files give.
TRACES = [
    ("textbook layer=1 head=1", {}, -1, 1, 1),
    ("head_split=view layer=0 head=1", {"head_split": "view"}, -1, 0, 1),
    ("only_layer=1 scale=none layer=0 head=0", {"scale": "none"}, 1, 0, 0),
    ("mask=none temperature=0.5 layer=1 head=0", {"mask": "none", "temperature": 0.5}, -1, 1, 0),
]


# --- GPT-2's byte-level BPE, as OpenAI's encoder.py, for ASCII texts -------------------

def bytes_to_unicode():
    bs = list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1)) + \
        list(range(ord("®"), ord("ÿ") + 1))
    cs = bs[:]
    n = 0
    for b in range(256):
        if b not in bs:
            bs.append(b)
            cs.append(256 + n)
            n += 1
    return dict(zip(bs, map(chr, cs)))


BYTE_TO_UNICODE = bytes_to_unicode()
# The pre-tokenizer's pattern with \p{L} and \p{N} spelt for ASCII: exact on ASCII texts.
PIECES = re.compile(r"""'s|'t|'re|'ve|'m|'ll|'d| ?[A-Za-z]+| ?[0-9]+| ?[^\sA-Za-z0-9]+|\s+(?!\S)|\s+""")


def bpe(word, ranks):
    word = list(word)
    while len(word) > 1:
        pairs = [(ranks.get((a, b), math.inf), i) for i, (a, b) in enumerate(zip(word, word[1:]))]
        rank, a = min(pairs)
        if rank == math.inf:
            break
        first, second = word[a], word[a + 1]
        merged, i = [], 0
        while i < len(word):
            if i + 1 < len(word) and word[i] == first and word[i + 1] == second:
                merged.append(first + second)
                i += 2
            else:
                merged.append(word[i])
                i += 1
        word = merged
    return word


def encode(text, vocab, ranks):
    assert text.isascii()
    ids = []
    for piece in PIECES.findall(text):
        spelt = "".join(BYTE_TO_UNICODE[b] for b in piece.encode("utf-8"))
        ids += [vocab[token] for token in bpe(spelt, ranks)]
    return ids


def small_vocabulary(corpus, merge_count):
    """The 256 byte tokens, then merge_count merges learnt on corpus, then <|endoftext|>."""
    vocab = {BYTE_TO_UNICODE[b]: i for i, b in enumerate(BYTE_TO_UNICODE)}
    words = [list("".join(BYTE_TO_UNICODE[b] for b in p.encode())) for p in PIECES.findall(corpus)]
    merges = []
    for _ in range(merge_count):
        counts = {}
        for word in words:
            for pair in zip(word, word[1:]):
                counts[pair] = counts.get(pair, 0) + 1
        if not counts:
            break
        best = max(sorted(counts), key=lambda pair: counts[pair])
        merges.append(best)
        vocab.setdefault(best[0] + best[1], len(vocab))
        words = [bpe(word, {best: 0}) for word in words]
    vocab["<|endoftext|>"] = len(vocab)
    return vocab, merges


# --- the checkpoint's files ---------------------------------------------------------

def make_checkpoint(seed, V, C, H, L, P):
    """Random weights as GPT-2 initialises them (normal, std 0.02; LayerNorms near 1)."""
    g = torch.Generator().manual_seed(seed)

    def randn(*shape, std=0.02):
        return torch.randn(*shape, generator=g) * std

    w = {"wte.weight": randn(V, C), "wpe.weight": randn(P, C, std=0.01)}
    for l in range(L):
        h = f"h.{l}."
        w[h + "ln_1.weight"] = 1 + randn(C, std=0.1)
        w[h + "ln_1.bias"] = randn(C)
        # A larger std than GPT-2's so that the scores are not all near 0: the switches
        # then change the weights by more than the tolerance.
        w[h + "attn.c_attn.weight"] = randn(C, 3 * C, std=0.3)
        w[h + "attn.c_attn.bias"] = randn(3 * C)
        w[h + "attn.c_proj.weight"] = randn(C, C, std=0.1)
        w[h + "attn.c_proj.bias"] = randn(C)
        w[h + "ln_2.weight"] = 1 + randn(C, std=0.1)
        w[h + "ln_2.bias"] = randn(C)
        w[h + "mlp.c_fc.weight"] = randn(C, 4 * C, std=0.1)
        w[h + "mlp.c_fc.bias"] = randn(4 * C)
        w[h + "mlp.c_proj.weight"] = randn(4 * C, C, std=0.1)
        w[h + "mlp.c_proj.bias"] = randn(C)
    w["ln_f.weight"] = 1 + randn(C, std=0.1)
    w["ln_f.bias"] = randn(C)
    return w


# --- the forward --------------------------------------------------------------------

def attention(qkv, C, H, sw):
    """qkv (1, T, 3C) → P (1, H, T, T), merged (1, T, C), under the switches `sw`."""
    B, T, _ = qkv.shape
    d_k = C // H
    q, k, v = qkv.split(C, dim=2)

    def split(t):
        if sw["head_split"] == "transpose":
            return t.view(B, T, H, d_k).transpose(1, 2)
        # The classic bug, on q, k and v each made contiguous (as their own nn.Linear
        # would give them): a view of c_attn's split is refused by torch.
        return t.contiguous().view(B, H, T, d_k)

    Q, K, V = split(q), split(k), split(v)
    S = Q @ K.transpose(-2, -1)  # (B, H, T, T)
    scale = {"sqrt-dk": 1 / math.sqrt(d_k), "none": 1, "sqrt-dmodel": 1 / math.sqrt(C)}[sw["scale"]]
    logits = S * scale / sw["temperature"]
    M = torch.zeros(B, 1, T, T, dtype=torch.bool)
    if sw["mask"] == "causal":
        M = M | torch.triu(torch.ones(T, T, dtype=torch.bool), 1)
    P = attention_weights(logits, M, sw)  # the cap, the window and the sink with the mask
    O = P @ V
    merged = O.transpose(1, 2).reshape(B, T, C)
    return P, merged, {"q": Q, "k": K, "v": V, "scores": S, "weights": P, "head_output": O}


def forward(w, config, ids, sw, only_layer, capture=None, lens=None):
    """Every layer's P and the last position's logits; with `capture` (a dict with "layer"),
    also that layer's stages: x (after ln_1), Q, K, V, S, P, P·V and c_proj's output; with
    `lens` (a list), the logit lens after each block."""
    C, H, L, eps = config["n_embd"], config["n_head"], config["n_layer"], config["layer_norm_epsilon"]
    T = len(ids)
    x = w["wte.weight"][ids] + w["wpe.weight"][:T]  # (T, C)
    x = x[None]
    layers = []
    for l in range(L):
        h = f"h.{l}."
        s = sw if only_layer in (-1, l) else TEXTBOOK
        a = F.layer_norm(x, (C,), w[h + "ln_1.weight"], w[h + "ln_1.bias"], eps)
        qkv = a @ w[h + "attn.c_attn.weight"] + w[h + "attn.c_attn.bias"]
        P, merged, stages = attention(qkv, C, H, s)
        merged = knock_out(merged, l, sw, H)
        layers.append(P[0])
        if capture is not None and capture["layer"] == l:
            capture.update(stages, x=a,
                           output=merged @ w[h + "attn.c_proj.weight"] + w[h + "attn.c_proj.bias"])
        x = x + merged @ w[h + "attn.c_proj.weight"] + w[h + "attn.c_proj.bias"]
        m = F.layer_norm(x, (C,), w[h + "ln_2.weight"], w[h + "ln_2.bias"], eps)
        m = m @ w[h + "mlp.c_fc.weight"] + w[h + "mlp.c_fc.bias"]
        m = 0.5 * m * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (m + 0.044715 * torch.pow(m, 3.0))))
        x = x + m @ w[h + "mlp.c_proj.weight"] + w[h + "mlp.c_proj.bias"]
        if lens is not None:  # ln_f, then wteᵀ
            lens.append(top5(F.layer_norm(x[0], (C,), w["ln_f.weight"], w["ln_f.bias"], eps)
                             @ w["wte.weight"].T))
    x = F.layer_norm(x, (C,), w["ln_f.weight"], w["ln_f.bias"], eps)
    logits = x[0, -1] @ w["wte.weight"].T  # (V)
    return layers, logits


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


# --- the checkpoints ----------------------------------------------------------------

CORPUS = ("The cat sat on the mat. The dog sat on the log. A cat and a dog met on the mat, "
          "and the cat said that the mat is the best mat there is. It's 2024; they'll see.")
TEXT = "The cat sat on the mat and the dog"


def build(name, seed, C, H, L, P, dtype, vocab=None, merges=None, prefix="", extras=False):
    folder = os.path.join(OUT, name)
    os.makedirs(folder, exist_ok=True)
    if vocab is None:
        with open(os.path.join(REAL_VOCAB, "vocab.json"), encoding="utf-8") as f:
            vocab = json.load(f)
        with open(os.path.join(REAL_VOCAB, "merges.txt"), encoding="utf-8") as f:
            lines = f.read().split("\n")[1:]
        merges = [tuple(line.split(" ")) for line in lines if line]
    else:
        with open(os.path.join(folder, "vocab.json"), "w", encoding="utf-8") as f:
            json.dump(vocab, f, ensure_ascii=False)
        with open(os.path.join(folder, "merges.txt"), "w", encoding="utf-8") as f:
            f.write("#version: 0.2\n" + "".join(f"{a} {b}\n" for a, b in merges))
    V = max(vocab.values()) + 1
    config = {"model_type": "gpt2", "activation_function": "gelu_new", "n_layer": L, "n_head": H,
              "n_embd": C, "n_positions": P, "n_ctx": P, "vocab_size": V,
              "layer_norm_epsilon": 1e-5, "architectures": ["GPT2LMHeadModel"], "n_inner": None,
              "bos_token_id": V - 1, "eos_token_id": V - 1}
    with open(os.path.join(folder, "config.json"), "w") as f:
        json.dump(config, f, indent=2)

    w = make_checkpoint(seed, V, C, H, L, P)
    torch_type = {"F32": torch.float32, "F16": torch.float16, "BF16": torch.bfloat16}[dtype]
    stored = {k: v.to(torch_type) for k, v in w.items()}
    w = {k: v.float() for k, v in stored.items()}  # what the model computes with
    tensors = {prefix + k: (dtype, v) for k, v in stored.items()}
    if extras:  # HF's buffers and the tied head, which a reader must skip
        for l in range(L):
            tensors[f"{prefix}h.{l}.attn.bias"] = ("F32", torch.tril(torch.ones(1, 1, P, P)))
            tensors[f"{prefix}h.{l}.attn.masked_bias"] = ("F32", torch.tensor(-1e4))
        tensors["lm_head.weight"] = (dtype, stored["wte.weight"])
    write_safetensors(os.path.join(folder, "model.safetensors"), tensors)

    ranks = {pair: i for i, pair in enumerate(merges)}
    ids = encode(TEXT, vocab, ranks)
    cases = []
    with torch.no_grad():
        for case, switches, only_layer in CASES:
            sw = dict(TEXTBOOK, **switches)
            lens = []
            layers, logits = forward(w, config, ids, sw, only_layer, lens=lens)
            finite = bool(torch.isfinite(logits).all())
            if V <= 1024:
                logit_ids = list(range(V))
            else:  # the top 50 and every 997th id: enough to catch a wrong row of wte
                logit_ids = sorted(set(torch.topk(logits, 50).indices.tolist()) |
                                   set(range(0, V, 997))) if finite else list(range(0, V, 997))
            top = torch.topk(logits, 10).indices.tolist() if finite else []
            cases.append({"name": case, "switches": switches, "only_layer": only_layer,
                          "attention": [nested(P) for P in layers], "logit_lens": lens,
                          "logit_ids": logit_ids, "logits": [number(logits[i].item()) for i in logit_ids],
                          "top10": top})
        # Which heads matter for the textbook run's next token (the last position).
        importance = head_importance(
            lambda spec: forward(w, config, ids, dict(TEXTBOOK, **({"knock_out": spec} if spec else {})),
                                 -1)[1], L, H)
        # Head scores and rollout on the text's first 4 tokens, twice.
        repeated = ids[:4] * 2
        scores = head_scores(forward(w, config, repeated, TEXTBOOK, -1)[0], repeated, 0, 8)
        # Greedy decoding of 10 tokens after the text (its last id the end token, as GPT-2's).
        generated = generations(lambda ids, sw, only: forward(w, config, ids, sw, only)[1],
                                TEXTBOOK, ids, 10, [V - 1], P)
    # One head of one layer, stage by stage: what Gpt2Model::trace must give.
    traces = []
    with torch.no_grad():
        for case, switches, only_layer, layer, head in TRACES:
            if layer >= L or head >= H:
                continue
            capture = {"layer": layer}
            forward(w, config, ids, dict(TEXTBOOK, **switches), only_layer, capture)
            traces.append({"name": case, "switches": switches, "only_layer": only_layer,
                           "layer": layer, "head": head, "x": nested(capture["x"][0]),
                           **{key: nested(capture[key][0, head]) for key in
                              ("q", "k", "v", "scores", "weights", "head_output")},
                           "output": nested(capture["output"][0])})
    with open(os.path.join(OUT, name + "-trace.json"), "w") as f:
        json.dump({"model": name, "text": TEXT, "ids": ids, "traces": traces}, f,
                  separators=(",", ":"))
    expected = {"model": name, "text": TEXT, "ids": ids, "dtype": dtype, "layers": L, "heads": H,
                "d_model": C, "vocab_size": V, "real_vocabulary": name.startswith("real"),
                "cases": cases, "head_importance": importance, "head_scores": scores,
                "generation": generated}
    with open(os.path.join(OUT, name + ".json"), "w") as f:
        json.dump(expected, f, separators=(",", ":"))


def main():
    torch.set_num_threads(1)
    vocab, merges = small_vocabulary(CORPUS, 60)
    build("small-f32", 1, C=32, H=4, L=2, P=32, dtype="F32", vocab=vocab, merges=merges)
    build("small-bf16", 2, C=32, H=2, L=3, P=24, dtype="BF16", vocab=vocab, merges=merges,
          prefix="transformer.", extras=True)
    build("real-f16", 3, C=16, H=2, L=2, P=64, dtype="F16")


if __name__ == "__main__":
    main()
