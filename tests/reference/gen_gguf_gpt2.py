#!/usr/bin/env python3
"""GGUF files of the gpt2 architecture for tst_ggufgpt2, converted from gen_gpt2_model.py's
checkpoints as llama.cpp's convert_hf_to_gguf.py converts GPT-2 (its GPT2Model), written by
gguf_file.py:

- metadata: general.architecture "gpt2"; gpt2.block_count, context_length (n_ctx),
  embedding_length, feed_forward_length (4 * n_embd), attention.head_count,
  attention.layer_norm_epsilon; the tokenizer as tokenizer.ggml.* (model "gpt2", pre "gpt-2",
  <|endoftext|> a control token, bos and eos from config.json);
- tensors: wte -> token_embd, wpe -> position_embd, h.N.ln_1 -> blk.N.attn_norm,
  attn.c_attn -> attn_qkv, attn.c_proj -> attn_output, ln_2 -> ffn_norm, mlp.c_fc -> ffn_up,
  mlp.c_proj -> ffn_down, ln_f -> output_norm, lm_head -> output (only where the checkpoint
  has one); the four Conv1D weights transposed to nn.Linear's [out, in]; h.N.attn.bias and
  masked_bias dropped; 1-D tensors and position_embd kept F32, the other matrices in the
  file's type.

gpt2-small-f32.gguf (small-f32, F32) and gpt2-small-bf16.gguf (small-bf16, BF16 matrices, an
lm_head of its own) hold their checkpoints' numbers exactly: their expected numbers are
tests/reference/gpt2/<name>.json. gpt2-small-q8_0.gguf (small-f32 in Q8_0, ggml's
quantize_row_q8_0_ref) comes with gpt2-small-q8_0.json: gen_gpt2_model.py's forward on the
weights the file holds, dequantized.

Run with /usr/bin/python3 (torch, numpy); writes tests/reference/gguf/.
"""
import json
import os

import numpy as np
import torch

import gen_gpt2_model as G
from gen_gguf_models import FILE_TYPES, OUT, read_safetensors, tokenizer_metadata
from ggml_blocks import dequantize, quantize
from gguf_file import write_gguf

CONV1D = ("attn.c_attn.weight", "attn.c_proj.weight", "mlp.c_fc.weight", "mlp.c_proj.weight")


def gguf_names(L):
    """(HF name without "transformer.", GGUF name) of every tensor llama.cpp writes."""
    names = [("wte.weight", "token_embd.weight"), ("wpe.weight", "position_embd.weight"),
             ("ln_f.weight", "output_norm.weight"), ("ln_f.bias", "output_norm.bias"),
             ("lm_head.weight", "output.weight")]
    for l in range(L):
        hf, gg = "h.%d." % l, "blk.%d." % l
        for a, b in (("ln_1", "attn_norm"), ("attn.c_attn", "attn_qkv"),
                     ("attn.c_proj", "attn_output"), ("ln_2", "ffn_norm"),
                     ("mlp.c_fc", "ffn_up"), ("mlp.c_proj", "ffn_down")):
            names += [(hf + a + ".weight", gg + b + ".weight"),
                      (hf + a + ".bias", gg + b + ".bias")]
    return names


def tokenizer_of(folder, eos):
    """vocab.json and merges.txt as tokenizer_metadata reads a tokenizer.json."""
    with open(os.path.join(folder, "vocab.json"), encoding="utf-8") as f:
        vocab = json.load(f)
    with open(os.path.join(folder, "merges.txt"), encoding="utf-8") as f:
        merges = [line for line in f.read().split("\n")[1:] if line]
    return {"model": {"vocab": vocab, "merges": merges},
            "added_tokens": [{"id": eos, "content": "<|endoftext|>", "special": True}]}


def convert(name, out_name, file_type, kind):
    """Checkpoint `name` as out_name.gguf, its matrices in `kind`; returns the weights the
    file holds (HF names, Conv1D shapes, float32) and the config."""
    folder = os.path.join(G.OUT, name)
    with open(os.path.join(folder, "config.json")) as f:
        cfg = json.load(f)
    weights = {k[len("transformer."):] if k.startswith("transformer.") else k: v
               for k, v in read_safetensors(os.path.join(folder, "model.safetensors")).items()}
    tensors, held = [], {}
    for hf, gg in gguf_names(cfg["n_layer"]):
        if hf not in weights:
            continue
        w = np.ascontiguousarray(weights[hf], dtype=np.float32)
        if hf.endswith(CONV1D):
            w = np.ascontiguousarray(w.T)  # [in, out] -> nn.Linear's [out, in]
        t = "F32" if w.ndim == 1 or gg == "position_embd.weight" else kind
        rows, cols = (1, w.shape[0]) if w.ndim == 1 else w.shape
        raw = quantize(t, w.reshape(rows, cols))
        back = dequantize(t, raw, rows, cols).reshape(w.shape)
        held[hf] = back.T if hf.endswith(CONV1D) else back
        tensors.append((gg, t, list(reversed(w.shape)), raw))
    eos = cfg["eos_token_id"]
    meta = [("general.architecture", "string", "gpt2"), ("general.name", "string", out_name),
            ("general.file_type", "uint32", FILE_TYPES[file_type]),
            ("general.alignment", "uint32", 32),
            ("gpt2.block_count", "uint32", cfg["n_layer"]),
            ("gpt2.context_length", "uint32", cfg["n_ctx"]),
            ("gpt2.embedding_length", "uint32", cfg["n_embd"]),
            ("gpt2.feed_forward_length", "uint32", 4 * cfg["n_embd"]),
            ("gpt2.attention.head_count", "uint32", cfg["n_head"]),
            ("gpt2.attention.layer_norm_epsilon", "float32", cfg["layer_norm_epsilon"])]
    meta += tokenizer_metadata(tokenizer_of(folder, eos), "gpt-2")
    meta += [("tokenizer.ggml.bos_token_id", "uint32", cfg["bos_token_id"]),
             ("tokenizer.ggml.eos_token_id", "uint32", eos)]
    write_gguf(os.path.join(OUT, out_name + ".gguf"), meta, tensors)
    return held, cfg


def expected_numbers(out_name, dtype, held, cfg, name):
    """gen_gpt2_model's cases on the weights a file holds (the JSON tst_ggufgpt2 reads)."""
    w = {k: torch.from_numpy(np.array(v, dtype=np.float32)) for k, v in held.items()}
    reference = os.path.join(G.OUT, name + ".json")
    with open(reference) as f:
        checkpoint = json.load(f)
    ids, V = checkpoint["ids"], cfg["vocab_size"]
    cases = []
    with torch.no_grad():
        for case, switches, only_layer in G.CASES:
            sw = dict(G.TEXTBOOK, **switches)
            lens = []
            layers, logits = G.forward(w, cfg, ids, sw, only_layer, lens=lens)
            finite = bool(torch.isfinite(logits).all())
            cases.append({"name": case, "switches": switches, "only_layer": only_layer,
                          "attention": [G.nested(P) for P in layers], "logit_lens": lens,
                          "logit_ids": list(range(V)),
                          "logits": [G.number(z) for z in logits.tolist()],
                          "top10": torch.topk(logits, 10).indices.tolist() if finite else []})
    expected = {"model": out_name, "text": checkpoint["text"], "ids": ids, "dtype": dtype,
                "layers": cfg["n_layer"], "heads": cfg["n_head"], "d_model": cfg["n_embd"],
                "vocab_size": V, "cases": cases}
    with open(os.path.join(OUT, out_name + ".json"), "w") as f:
        json.dump(expected, f, separators=(",", ":"))


def main():
    torch.set_num_threads(1)
    os.makedirs(OUT, exist_ok=True)
    convert("small-f32", "gpt2-small-f32", "F32", "F32")
    convert("small-bf16", "gpt2-small-bf16", "BF16", "BF16")
    held, cfg = convert("small-f32", "gpt2-small-q8_0", "Q8_0", "Q8_0")
    expected_numbers("gpt2-small-q8_0", "Q8_0", held, cfg, "small-f32")


if __name__ == "__main__":
    main()
