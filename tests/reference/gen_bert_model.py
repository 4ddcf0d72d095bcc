#!/usr/bin/env python3
"""Tiny random BERT checkpoints (config model_type bert) in Hugging Face's folder layout, and
what a plain PyTorch BertForMaskedLM gives on them under every switch of the formula:
tst_bertmodel's expected numbers.

The forward is written after Hugging Face's modeling_bert.py (eager attention):
- BertEmbeddings: word_embeddings[ids] + position_embeddings[0 ... T-1] (absolute) +
  token_type_embeddings[0] (one segment), then LayerNorm (layer_norm_eps).
- Per layer (post-LN): BertSelfAttention's query, key, value (nn.Linear, weight [out, in]),
  S / sqrt(d_k), no mask (bidirectional: an all-ones attention_mask adds 0), softmax over the
  keys; BertSelfOutput x = LayerNorm(dense(context) + x); BertIntermediate GELU (erf, hidden_act
  "gelu") of dense; BertOutput x = LayerNorm(dense(h) + x).
- The MLM head cls.predictions: transform.dense, GELU, transform.LayerNorm, then the decoder tied
  to word_embeddings plus cls.predictions.bias. The pooler and cls.seq_relationship are unused.
The attention step takes the same switches as gen_llama_model.py's (without rope); the textbook
formula has no mask, so mask=causal is the switch that breaks it.

Run with /usr/bin/python3 (torch); writes tests/reference/bert/<name>/ (config.json,
model.safetensors, vocab.txt, tokenizer_config.json) and tests/reference/bert/<name>.json, and
for bert-f32 tests/reference/bert/bert-f32-trace.json: one head of one layer stage by stage on
TEXT (what BertModel::trace must give: the layer's input, which post-LN is the previous
layer's output; Q_h, K_h, V_h as the head split cuts them; S = Q_h K_h^T; P; O_h = P V_h;
attention.output.dense of the heads' concatenation, before the residual and its LayerNorm).
"""
import json
import math
import os

import torch
import torch.nn.functional as F

from head_scores import head_scores
from knock_out import head_importance, knock_out
from logit_lens import top5
from safetensors_file import write_safetensors

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "bert")

TEXTBOOK = {"scale": "sqrt-dk", "temperature": 1.0, "axis": "keys", "mask": "none",
            "mask_fill": "neg-inf", "mask_stage": "before-softmax", "head_split": "transpose"}
# (case name, switches departing from the textbook formula, only_layer)
CASES = [
    ("textbook", {}, -1),
    ("scale=none", {"scale": "none"}, -1),
    ("scale=sqrt-dmodel", {"scale": "sqrt-dmodel"}, -1),
    ("temperature=0.5", {"temperature": 0.5}, -1),
    ("axis=queries", {"axis": "queries"}, -1),
    ("axis=batch", {"axis": "batch"}, -1),
    ("mask=causal", {"mask": "causal"}, -1),
    ("mask=causal mask_fill=-1e9", {"mask": "causal", "mask_fill": "-1e9"}, -1),
    ("mask=causal mask_stage=after-softmax", {"mask": "causal", "mask_stage": "after-softmax"}, -1),
    ("axis=batch mask=causal mask_stage=after-softmax",
     {"axis": "batch", "mask": "causal", "mask_stage": "after-softmax"}, -1),
    ("head_split=view", {"head_split": "view"}, -1),
    ("only_layer=1 mask=causal", {"mask": "causal"}, 1),
    ("only_layer=0 scale=none head_split=view", {"scale": "none", "head_split": "view"}, 0),
    ("knock_out=0.1,1.0", {"knock_out": "0.1,1.0"}, -1),
    ("knock_out=0.0 mean scale=none", {"knock_out": "0.0", "knock_out_mode": "mean",
                                        "scale": "none"}, -1),
    ("only_layer=1 axis=queries knock_out=0.1 mean",
     {"axis": "queries", "knock_out": "0.1", "knock_out_mode": "mean"}, 1),
]

# (case name, switches, only_layer, layer, head): the heads whose stages the trace file gives.
TRACES = [
    ("textbook layer=1 head=3", {}, -1, 1, 3),
    ("mask=causal layer=0 head=1", {"mask": "causal"}, -1, 0, 1),
    ("head_split=view layer=1 head=2", {"head_split": "view"}, -1, 1, 2),
    ("only_layer=1 scale=none layer=0 head=0", {"scale": "none"}, 1, 0, 0),
    ("scale=sqrt-dmodel temperature=0.5 layer=1 head=0",
     {"scale": "sqrt-dmodel", "temperature": 0.5}, -1, 1, 0),
]

# The vocabulary: the special tokens first as bert-base-chinese has them ([PAD] 0, [UNK] 100,
# [CLS] 101, [SEP] 102, [MASK] 103 there; here packed), Chinese characters one a token,
# English words, a few continuation pieces and punctuation.
VOCAB = (["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
         + list("巴黎是法国的首都。中我喜欢这个产品北京人大小，了不有在上下和英德美天气很好")
         + ["the", "cat", "sat", "on", "mat", "paris", "is", "capital", "of", "france", "a",
            "dog", "run", "##s", "##ing", "##ed", "un", "##able", "play", "hello", "world"]
         + list(".,!?;:'\"()-") + [str(d) for d in range(10)])


# --- the checkpoint, under HF's names without "bert." and with LayerNorm weight/bias ----------

def make_checkpoint(seed, cfg, qk_std=0.35):
    g = torch.Generator().manual_seed(seed)

    def randn(*shape, std=0.02):
        return torch.randn(*shape, generator=g) * std

    C, V, L, I = cfg["hidden_size"], cfg["vocab_size"], cfg["num_hidden_layers"], \
        cfg["intermediate_size"]

    def norm(name):
        w[name + ".weight"] = 1 + randn(C, std=0.1)
        w[name + ".bias"] = randn(C, std=0.1)

    w = {"embeddings.word_embeddings.weight": randn(V, C, std=0.5),
         "embeddings.position_embeddings.weight": randn(cfg["max_position_embeddings"], C,
                                                        std=0.3),
         "embeddings.token_type_embeddings.weight": randn(cfg["type_vocab_size"], C, std=0.3)}
    norm("embeddings.LayerNorm")
    for l in range(L):
        p = f"encoder.layer.{l}."
        # Larger than a trained model's so that the scores are not all near 0 (the switches
        # then change the weights by more than the tolerance).
        for part, std in (("query", qk_std), ("key", qk_std), ("value", 0.2)):
            w[p + f"attention.self.{part}.weight"] = randn(C, C, std=std)
            w[p + f"attention.self.{part}.bias"] = randn(C, std=0.2)
        w[p + "attention.output.dense.weight"] = randn(C, C, std=0.1)
        w[p + "attention.output.dense.bias"] = randn(C, std=0.1)
        norm(p + "attention.output.LayerNorm")
        w[p + "intermediate.dense.weight"] = randn(I, C, std=0.2)
        w[p + "intermediate.dense.bias"] = randn(I, std=0.1)
        w[p + "output.dense.weight"] = randn(C, I, std=0.2)
        w[p + "output.dense.bias"] = randn(C, std=0.1)
        norm(p + "output.LayerNorm")
    w["cls.predictions.transform.dense.weight"] = randn(C, C, std=0.2)
    w["cls.predictions.transform.dense.bias"] = randn(C, std=0.1)
    norm("cls.predictions.transform.LayerNorm")
    w["cls.predictions.bias"] = randn(V, std=0.5)
    # Stored by HF checkpoints and ignored here: the pooler and the next-sentence head.
    w["pooler.dense.weight"] = randn(C, C)
    w["pooler.dense.bias"] = randn(C)
    w["cls.seq_relationship.weight"] = randn(2, C)
    w["cls.seq_relationship.bias"] = randn(2)
    return w


def stored_name(name, prefix, gamma_beta):
    """HF's name as a checkpoint spells it: "bert." before the encoder's tensors (not the cls
    head's), LayerNorm's weight/bias as gamma/beta in old TF conversions."""
    if gamma_beta and "LayerNorm." in name:
        name = name.replace("LayerNorm.weight", "LayerNorm.gamma").replace("LayerNorm.bias",
                                                                            "LayerNorm.beta")
    return name if name.startswith("cls.") else prefix + name


# --- the forward -----------------------------------------------------------------------------

def layer_norm(x, w, name, eps):
    return F.layer_norm(x, (x.shape[-1],), w[name + ".weight"], w[name + ".bias"], eps)


def linear(x, w, name):
    return x @ w[name + ".weight"].T + w[name + ".bias"]


def attention(h, w, p, cfg, sw, capture=None):
    """h (1, T, C) → P (1, H, T, T), the context (1, T, C). `capture`, a dict, gets the
    stages."""
    B, T, C = h.shape
    H = cfg["num_attention_heads"]
    d = C // H
    q = linear(h, w, p + "attention.self.query")
    k = linear(h, w, p + "attention.self.key")
    v = linear(h, w, p + "attention.self.value")

    def split(t):
        if sw["head_split"] == "transpose":
            return t.view(B, T, H, d).transpose(1, 2)
        return t.contiguous().view(B, H, T, d)  # the classic bug

    Q, K, V = split(q), split(k), split(v)
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
    O = P @ V
    if capture is not None:
        capture.update(x=h, q=Q, k=K, v=V, scores=S, weights=P, head_output=O)
    return P, O.transpose(1, 2).reshape(B, T, C)


def forward(w, cfg, ids, sw, only_layer, capture=None, lens=None):
    eps, T = cfg["layer_norm_eps"], len(ids)
    x = (w["embeddings.word_embeddings.weight"][ids]
         + w["embeddings.position_embeddings.weight"][:T]
         + w["embeddings.token_type_embeddings.weight"][0])[None]  # (1, T, C)
    x = layer_norm(x, w, "embeddings.LayerNorm", eps)
    layers = []
    for l in range(cfg["num_hidden_layers"]):
        p = f"encoder.layer.{l}."
        s = sw if only_layer in (-1, l) else TEXTBOOK
        here = capture if capture is not None and capture["layer"] == l else None
        P, context = attention(x, w, p, cfg, s, here)
        context = knock_out(context, l, sw, cfg["num_attention_heads"])
        layers.append(P[0])
        out = linear(context, w, p + "attention.output.dense")
        if here is not None:
            here["output"] = out
        x = layer_norm(out + x, w, p + "attention.output.LayerNorm", eps)
        h = F.gelu(linear(x, w, p + "intermediate.dense"))
        x = layer_norm(linear(h, w, p + "output.dense") + x, w, p + "output.LayerNorm", eps)
        if lens is not None:  # no final norm: the masked-LM head on the block's output
            lens.append(top5(mlm_head(x, w, eps)))
    return layers, mlm_head(x, w, eps)  # logits (T, V)


def mlm_head(x, w, eps):
    """cls.predictions: transform (dense, GELU, LayerNorm), the tied decoder and its bias:
    x (1, T, C) → logits (T, V)."""
    h = layer_norm(F.gelu(linear(x, w, "cls.predictions.transform.dense")), w,
                   "cls.predictions.transform.LayerNorm", eps)
    return h[0] @ w["embeddings.word_embeddings.weight"].T + w["cls.predictions.bias"]


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

def ids_of(pieces):
    return [VOCAB.index(p) for p in pieces]


# [CLS] 巴 黎 是 [MASK] 国 的 [MASK] 都 。 [SEP]: two fill-ins.
IDS = ids_of(["[CLS]", "巴", "黎", "是", "[MASK]", "国", "的", "[MASK]", "都", "。", "[SEP]"])
# What the CLI test types, and its ids as BERT's basic tokenizer cuts it (one a CJK character).
TEXT = "巴黎是[MASK]国的首都。"
TEXT_IDS = ids_of(["[CLS]", "巴", "黎", "是", "[MASK]", "国", "的", "首", "都", "。", "[SEP]"])


def build(name, seed, dtype, cfg, prefix, gamma_beta, trace=False):
    folder = os.path.join(OUT, name)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "vocab.txt"), "w", encoding="utf-8") as f:
        f.write("".join(token + "\n" for token in VOCAB))
    with open(os.path.join(folder, "tokenizer_config.json"), "w") as f:
        json.dump({"do_lower_case": True, "tokenize_chinese_chars": True, "strip_accents": None,
                   "model_max_length": cfg["max_position_embeddings"],
                   "tokenizer_class": "BertTokenizer"}, f, indent=2)
    with open(os.path.join(folder, "config.json"), "w") as f:
        json.dump(cfg, f, indent=2)
    w = make_checkpoint(seed, cfg)
    torch_type = {"F32": torch.float32, "F16": torch.float16, "BF16": torch.bfloat16}[dtype]
    stored = {k: v.to(torch_type) for k, v in w.items()}
    w = {k: v.float() for k, v in stored.items()}  # what the model computes with
    write_safetensors(os.path.join(folder, "model.safetensors"),
                      {stored_name(k, prefix, gamma_beta): (dtype, v) for k, v in stored.items()})

    masks = [t for t, i in enumerate(IDS) if i == VOCAB.index("[MASK]")]
    cases = []
    with torch.no_grad():
        for case, switches, only_layer in CASES:
            sw = dict(TEXTBOOK, **switches)
            lens = []
            layers, logits = forward(w, cfg, IDS, sw, only_layer, lens=lens)
            cases.append({"name": case, "switches": switches, "only_layer": only_layer,
                          "attention": [nested(P) for P in layers], "logit_lens": lens,
                          # at each [MASK]: what the MLM head fills in
                          "logits": [[number(z) for z in logits[t].tolist()] for t in masks],
                          "top10": [torch.topk(logits[t], 10).indices.tolist()
                                    if bool(torch.isfinite(logits[t]).all()) else []
                                    for t in masks]})
        # Which heads matter for what the textbook run fills in at the first [MASK].
        importance = head_importance(
            lambda spec: forward(w, cfg, IDS, dict(TEXTBOOK, **({"knock_out": spec} if spec else {})),
                                 -1)[1][masks[0]], cfg["num_hidden_layers"], cfg["num_attention_heads"])
        # Head scores and rollout on [CLS], the text's first 3 tokens twice, [SEP].
        repeated = TEXT_IDS[:1] + TEXT_IDS[1:4] * 2 + TEXT_IDS[-1:]
        scores = head_scores(forward(w, cfg, repeated, TEXTBOOK, -1)[0], repeated, 1, 7)
    expected = {"model": name, "ids": IDS, "masks": masks, "text": TEXT, "text_ids": TEXT_IDS,
                "dtype": dtype, "family": "bert", "layers": cfg["num_hidden_layers"],
                "heads": cfg["num_attention_heads"], "d_model": cfg["hidden_size"],
                "vocab_size": cfg["vocab_size"], "cases": cases, "head_importance": importance,
                "head_scores": scores}
    with open(os.path.join(OUT, name + ".json"), "w") as f:
        json.dump(expected, f, separators=(",", ":"))

    # One head of one layer, stage by stage, on TEXT: what BertModel::trace must give.
    traces = []
    with torch.no_grad():
        for case, switches, only_layer, layer, head in TRACES if trace else []:
            capture = {"layer": layer}
            forward(w, cfg, TEXT_IDS, dict(TEXTBOOK, **switches), only_layer, capture)
            traces.append({"name": case, "switches": switches, "only_layer": only_layer,
                           "layer": layer, "head": head, "x": nested(capture["x"][0]),
                           **{key: nested(capture[key][0, head]) for key in
                              ("q", "k", "v", "scores", "weights", "head_output")},
                           "output": nested(capture["output"][0])})
    if traces:
        with open(os.path.join(OUT, name + "-trace.json"), "w") as f:
            json.dump({"model": name, "text": TEXT, "ids": TEXT_IDS, "traces": traces}, f,
                      separators=(",", ":"))


def main():
    torch.set_num_threads(1)
    common = {"model_type": "bert", "architectures": ["BertForMaskedLM"], "hidden_act": "gelu",
              "num_hidden_layers": 2, "num_attention_heads": 4, "max_position_embeddings": 64,
              "type_vocab_size": 2, "vocab_size": len(VOCAB), "layer_norm_eps": 1e-12,
              "position_embedding_type": "absolute", "pad_token_id": 0,
              "hidden_dropout_prob": 0.1, "attention_probs_dropout_prob": 0.1}
    # "bert." before the encoder's tensors, LayerNorm weight/bias, F32, hidden 32.
    build("bert-f32", 11, "F32", dict(common, hidden_size=32, intermediate_size=64,
                                      torch_dtype="float32"), "bert.", False, trace=True)
    # No prefix, LayerNorm gamma/beta (an old TF conversion), BF16, hidden 48.
    build("bert-bf16", 12, "BF16", dict(common, hidden_size=48, intermediate_size=96,
                                        torch_dtype="bfloat16"), "", True)


if __name__ == "__main__":
    main()
