#!/usr/bin/env python3
"""Tiny random checkpoints of the Qwen/Llama family (config model_type qwen2, qwen3, llama,
mistral) in
Hugging Face's folder layout, and what a plain PyTorch forward gives on them under every switch
of the formula: tst_llamamodel's expected numbers.

The forward is written after Hugging Face's modeling_qwen2.py, modeling_qwen3.py,
modeling_llama.py and modeling_mistral.py (eager attention):
- x = model.embed_tokens[ids]; per layer, x += o_proj(attention(input_layernorm(x))),
  x += down_proj(silu(gate_proj(h)) * up_proj(h)) with h = post_attention_layernorm(x);
  model.norm; logits = h lm_head^T, lm_head tied to embed_tokens when tie_word_embeddings.
- RMSNorm in float32: x * rsqrt(mean(x^2) + eps) * weight.
- q_proj (H*d, C), k_proj and v_proj (H_kv*d, C), o_proj (C, H*d): nn.Linear, y = x W^T + b.
  Qwen2: q, k, v biases (o none); llama and qwen3: biases when attention_bias.
- Qwen3: q_norm and k_norm, RMSNorms over head_dim, on each head before RoPE.
- RoPE: inv_freq = 1 / theta^(arange(0, d, 2) / d), emb = cat(freqs, freqs), the rotate-half
  layout q*cos + rotate_half(q)*sin, positions 0 ... T-1 along the heads' T axis. rope_scaling
  (or rope_parameters) of rope_type "linear" divides inv_freq by factor; "llama3" scales it as
  HF's modeling_rope_utils._compute_llama3_parameters (low frequencies by 1/factor, high ones
  kept, the band between smoothed).
- Grouped-query attention: repeat_kv, query head h reads K/V head h // (H / H_kv).
- Mistral: Llama's layers; under the causal mask, sliding_window W also hides the keys j with
  i - j >= W.
The attention step takes the same switches as gen_gpt2_model.py's, plus rope (on|off); the
scale sqrt-dmodel divides by sqrt(hidden_size).

Run with /usr/bin/python3 (torch); writes tests/reference/llama/<name>/ (config.json and
model.safetensors and a tiny byte-level tokenizer.json: the 256 bytes as ids 0 ... 255 in byte
order, three merges spelling " the", and <|endoftext|>) and tests/reference/llama/<name>.json;
and tests/reference/llama/<name>-trace.json: one query head of one layer stage by stage on TEXT
(what LlamaModel::trace must give: the layer's input_layernorm output, Q_h after q_norm and
RoPE, K_h and V_h of the K/V head it shares, S, P, P V_h and o_proj's output).
"""
import json
import math
import os

import torch
import torch.nn.functional as F

from todays_switches import attention_weights

from generation import generations
from head_scores import head_scores
from knock_out import head_importance, knock_out
from logit_lens import top5
from safetensors_file import write_safetensors

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
    ("knock_out=0.1,1.0", {"knock_out": "0.1,1.0"}, -1),
    ("knock_out=0.0 mean scale=none", {"knock_out": "0.0", "knock_out_mode": "mean",
                                        "scale": "none"}, -1),
    ("only_layer=1 axis=queries knock_out=0.1 mean",
     {"axis": "queries", "knock_out": "0.1", "knock_out_mode": "mean"}, 1),
    # Today's models' switches inside every layer; Mistral's own window changed or off.
    ("window=3", {"window": 3}, -1),
    ("window=off", {"window": None}, -1),
    ("softcap=2", {"softcap": 2.0}, -1),
    ("sink=0", {"sink": 0.0}, -1),
    ("only_layer=1 window=2 softcap=1 sink=-1", {"window": 2, "softcap": 1.0, "sink": -1.0}, 1),
]

# (case name, switches, only_layer, layer, head): the heads whose stages the trace files give.
TRACES = [
    ("textbook layer=1 head=3", {}, -1, 1, 3),
    ("rope=off layer=0 head=1", {"rope": "off"}, -1, 0, 1),
    ("head_split=view layer=1 head=2", {"head_split": "view"}, -1, 1, 2),
    ("only_layer=1 scale=none layer=0 head=0", {"scale": "none"}, 1, 0, 0),
    ("mask=none temperature=0.5 layer=1 head=0", {"mask": "none", "temperature": 0.5}, -1, 1, 0),
]
TEXT = "The cat sat on the mat"


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


def rope_scaling(cfg):
    """rope_parameters, or the older rope_scaling; None for the default rotation."""
    scaling = cfg.get("rope_parameters") or cfg.get("rope_scaling")
    if not scaling or scaling.get("rope_type", scaling.get("type", "default")) == "default":
        return None
    return scaling


def rotary(cfg, T):
    d = head_dim(cfg)
    inv_freq = 1.0 / (rope_theta(cfg) ** (torch.arange(0, d, 2, dtype=torch.int64).float() / d))
    scaling = rope_scaling(cfg)
    if scaling and scaling.get("rope_type", scaling.get("type")) == "linear":
        inv_freq = inv_freq / scaling["factor"]
    elif scaling:  # llama3, as _compute_llama3_parameters
        factor, low, high = scaling["factor"], scaling["low_freq_factor"], scaling["high_freq_factor"]
        old = scaling["original_max_position_embeddings"]
        low_wavelen, high_wavelen = old / low, old / high
        wavelen = 2 * math.pi / inv_freq
        scaled = torch.where(wavelen > low_wavelen, inv_freq / factor, inv_freq)
        smooth = (old / wavelen - low) / (high - low)
        smoothed = (1 - smooth) * scaled / factor + smooth * scaled
        medium = ~(wavelen < high_wavelen) * ~(wavelen > low_wavelen)
        inv_freq = torch.where(medium, smoothed, scaled)
    freqs = torch.outer(torch.arange(T).float(), inv_freq)  # (T, d/2)
    emb = torch.cat((freqs, freqs), dim=-1)
    return emb.cos(), emb.sin()


def rotate_half(x):
    x1, x2 = x[..., : x.shape[-1] // 2], x[..., x.shape[-1] // 2:]
    return torch.cat((-x2, x1), dim=-1)


def attention(h, w, p, cfg, sw, cos, sin, capture=None, knock=lambda merged: merged):
    """h (1, T, C) → P (1, H, T, T), the attention's output (1, T, C). `capture`, a dict, gets
    the stages (Q, K and V with K and V repeated to the H query heads)."""
    B, T, C = h.shape
    H, Hkv, d = cfg["num_attention_heads"], cfg["num_key_value_heads"], head_dim(cfg)
    if "window" not in sw and cfg["model_type"] == "mistral":
        sw = dict(sw, window=cfg.get("sliding_window"))  # its own, unless a case sets it
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
    # Mistral's sliding window (modeling_mistral.py's sliding-window causal mask: key j seen
    # by query i only when i - W < j <= i) is its own formula's "window" (own_switches),
    # which a case may change or turn off (null) as any switch.
    P = attention_weights(logits, M, sw)  # the cap, the window and the sink with the mask
    O = P @ V
    merged = knock(O.transpose(1, 2).reshape(B, T, H * d))
    out = linear(merged, w, p + "self_attn.o_proj")
    if capture is not None:
        capture.update(x=h, q=Q, k=K, v=V, scores=S, weights=P, head_output=O, output=out)
    return P, out


def forward(w, cfg, ids, sw, only_layer, capture=None, lens=None):
    eps, T = cfg["rms_norm_eps"], len(ids)
    cos, sin = rotary(cfg, T)
    x = w["model.embed_tokens.weight"][ids][None]  # (1, T, C)
    head = w["model.embed_tokens.weight"] if cfg.get("tie_word_embeddings") else w["lm_head.weight"]
    layers = []
    for l in range(cfg["num_hidden_layers"]):
        p = f"model.layers.{l}."
        s = sw if only_layer in (-1, l) else TEXTBOOK
        P, out = attention(rms_norm(x, w[p + "input_layernorm.weight"], eps), w, p, cfg, s, cos, sin,
                           capture if capture is not None and capture["layer"] == l else None,
                           lambda m, l=l: knock_out(m, l, sw, cfg["num_attention_heads"]))
        layers.append(P[0])
        x = x + out
        h = rms_norm(x, w[p + "post_attention_layernorm.weight"], eps)
        x = x + linear(F.silu(linear(h, w, p + "mlp.gate_proj")) * linear(h, w, p + "mlp.up_proj"),
                       w, p + "mlp.down_proj")
        if lens is not None:  # the final RMSNorm, then lm_head
            lens.append(top5(rms_norm(x, w["model.norm.weight"], eps)[0] @ head.T))
    x = rms_norm(x, w["model.norm.weight"], eps)
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


def encode(text):
    """The ids tokenizer_json() gives an ASCII text: its pre-tokenizer's words (a letter run
    with the space before it, a digit, a punctuation run, spaces), each word's bytes merged
    by MERGES in rank order."""
    import re
    letters = byte_letters()
    vocab = {letters[b]: b for b in range(256)}
    for i, (a, b) in enumerate(MERGES):
        vocab[a + b] = 256 + i
    ranks = {pair: i for i, pair in enumerate(MERGES)}
    ids = []
    for word in re.findall(r" ?[A-Za-z]+|[0-9]| ?[^\sA-Za-z0-9]+|\s+", text):
        parts = [letters[b] for b in word.encode()]
        while len(parts) > 1:
            pairs = [(ranks.get((parts[i], parts[i + 1]), 1 << 30), i) for i in range(len(parts) - 1)]
            rank, i = min(pairs)
            if rank == 1 << 30:
                break
            parts[i:i + 2] = [parts[i] + parts[i + 1]]
        ids += [vocab[part] for part in parts]
    return ids


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


def build(name, seed, dtype, cfg, prefix_extras=None, qk_std=0.35, trace=True):
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
            lens = []
            layers, logits = forward(w, cfg, IDS, sw, only_layer, lens=lens)
            finite = bool(torch.isfinite(logits).all())
            cases.append({"name": case, "switches": switches, "only_layer": only_layer,
                          "attention": [nested(P) for P in layers], "logit_lens": lens,
                          "logits": [number(z) for z in logits.tolist()],
                          "top10": torch.topk(logits, 10).indices.tolist() if finite else []})
        # Which heads matter for the textbook run's next token (the last position).
        importance = head_importance(
            lambda spec: forward(w, cfg, IDS, dict(TEXTBOOK, **({"knock_out": spec} if spec else {})),
                                 -1)[1], cfg["num_hidden_layers"], cfg["num_attention_heads"])
        # Head scores and rollout on the ids' first 4 (after a BOS), twice.
        bos = IDS[:1] if IDS[0] == 1 else []
        repeated = bos + IDS[len(bos):len(bos) + 4] * 2
        scores = head_scores(forward(w, cfg, repeated, TEXTBOOK, -1)[0], repeated, len(bos),
                             len(repeated))
        # Greedy decoding of 12 tokens after the ids, stopping at config's eos_token_id.
        generated = generations(lambda ids, sw, only: forward(w, cfg, ids, sw, only)[1],
                                TEXTBOOK, IDS, 12, [cfg["eos_token_id"]],
                                cfg["max_position_embeddings"])
    # One head of one layer, stage by stage: what LlamaModel::trace must give.
    ids, traces = encode(TEXT), []
    with torch.no_grad():
        for case, switches, only_layer, layer, head in TRACES if trace else []:
            capture = {"layer": layer}
            forward(w, cfg, ids, dict(TEXTBOOK, **switches), only_layer, capture)
            traces.append({"name": case, "switches": switches, "only_layer": only_layer,
                           "layer": layer, "head": head, "x": nested(capture["x"][0]),
                           **{key: nested(capture[key][0, head]) for key in
                              ("q", "k", "v", "scores", "weights", "head_output")},
                           "output": nested(capture["output"][0])})
    if traces:
        with open(os.path.join(OUT, name + "-trace.json"), "w") as f:
            json.dump({"model": name, "text": TEXT, "ids": ids, "traces": traces}, f,
                      separators=(",", ":"))
    expected = {"model": name, "ids": IDS, "dtype": dtype, "family": cfg["model_type"],
                "layers": cfg["num_hidden_layers"], "heads": cfg["num_attention_heads"],
                "kv_heads": cfg["num_key_value_heads"], "head_dim": head_dim(cfg),
                "d_model": cfg["hidden_size"], "vocab_size": cfg["vocab_size"], "cases": cases,
                "head_importance": importance, "head_scores": scores, "generation": generated}
    with open(os.path.join(OUT, name + ".json"), "w") as f:
        json.dump(expected, f, separators=(",", ":"))


def main():
    torch.set_num_threads(1)
    common = {"hidden_act": "silu", "num_hidden_layers": 2, "num_attention_heads": 4,
              "num_key_value_heads": 2, "max_position_embeddings": 64, "vocab_size": 260,
              "eos_token_id": 2}
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
    # Llama 3.1/3.2's rope scaling (rope_type llama3) with an original context of 64, so that
    # of head_dim 12's six frequencies one is kept, one smoothed and four divided by factor.
    build("llama3-f32", 4, "F32", dict(common, model_type="llama", architectures=["LlamaForCausalLM"],
                                       hidden_size=48, intermediate_size=96, rms_norm_eps=1e-5,
                                       rope_theta=500000.0, attention_bias=False, mlp_bias=False,
                                       tie_word_embeddings=True,
                                       rope_scaling={"factor": 8.0, "low_freq_factor": 1.0,
                                                     "high_freq_factor": 4.0,
                                                     "original_max_position_embeddings": 64,
                                                     "rope_type": "llama3"},
                                       torch_dtype="float32"), qk_std=0.25, trace=False)
    # Linear scaling (position interpolation) in rope_parameters, as newer configs write it.
    build("qwen2-linear-f32", 5, "F32",
          dict(common, model_type="qwen2", architectures=["Qwen2ForCausalLM"], hidden_size=32,
               intermediate_size=64, rms_norm_eps=1e-6, tie_word_embeddings=True,
               use_sliding_window=False,
               rope_parameters={"rope_theta": 10000.0, "rope_type": "linear", "factor": 4.0},
               torch_dtype="float32"), trace=False)
    # SmolLM2's shape: plain Llama, 6 query heads on 2 K/V heads (3 a group, as SmolLM2-135M's
    # 9 on 3), tied embeddings with no lm_head stored, rope_theta 100000.
    build("smollm2-f32", 6, "F32",
          dict(common, model_type="llama", architectures=["LlamaForCausalLM"], hidden_size=48,
               num_attention_heads=6, num_key_value_heads=2, intermediate_size=64,
               rms_norm_eps=1e-5, rope_theta=100000.0, attention_bias=False, mlp_bias=False,
               tie_word_embeddings=True, rope_scaling=None, torch_dtype="float32"),
          qk_std=0.25, trace=False)
    # Mistral: Llama's layers with a sliding window of 4 (12 ids: the window hides keys from
    # query 4 on), head_dim given, an untied lm_head.
    build("mistral-f32", 7, "F32",
          dict(common, model_type="mistral", architectures=["MistralForCausalLM"],
               hidden_size=32, head_dim=8, intermediate_size=64, rms_norm_eps=1e-5,
               rope_theta=10000.0, sliding_window=4, tie_word_embeddings=False,
               torch_dtype="float32"))


if __name__ == "__main__":
    main()
