#!/usr/bin/env python3
"""GGUF files of the bert architecture for tst_ggufbert, converted from gen_bert_model.py's
checkpoints as llama.cpp's convert_hf_to_gguf.py (class BertModel) converts a Hugging Face
BERT, written by gguf_file.py:

- the metadata: bert.block_count, context_length, embedding_length, feed_forward_length,
  attention.head_count, attention.layer_norm_epsilon, attention.causal (false);
- the tensors in llama.cpp's names (its tensor_mapping.py for MODEL_ARCH.BERT), "bert."
  dropped and gamma/beta read as weight/bias; the pooler, embeddings.position_ids,
  cls.seq_relationship and the masked-LM head cls.predictions.* dropped, as the converter
  drops them; 1-D tensors, position_embd and token_types in F32, the other matrices in the
  file's type;
- the vocabulary: tokenizer.ggml.model "bert", its tokens in the converter's "phantom space"
  spelling (a control token as it is, "##ing" as "ing", every other token after U+2581),
  token types (3 for the special tokens, 1 for the others), token_type_count and the
  special tokens' ids.

bert-f32.gguf (F32) and bert-bf16.gguf (BF16 blocks of the BF16 checkpoint, the same values)
hold their checkpoints' weights exactly: their expected numbers are the checkpoints' own
(tests/reference/bert/<name>.json). Run with /usr/bin/python3 (numpy); writes
tests/reference/gguf/bert-*.gguf.
"""
import json
import os

import numpy as np

from gen_bert_model import OUT as BERT, VOCAB
from gen_gguf_models import FILE_TYPES, OUT, read_safetensors
from ggml_blocks import quantize
from gguf_file import write_gguf

SPECIAL = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
CONTROL, NORMAL = 3, 1


def hf_name(name):
    """A checkpoint's name as the converter reads it: no "bert.", LayerNorm weight/bias."""
    name = name[5:] if name.startswith("bert.") else name
    if name.endswith(".gamma"):
        name = name[:-6] + ".weight"
    if name.endswith(".beta"):
        name = name[:-5] + ".bias"
    return name


def gguf_name(hf):
    """llama.cpp's name of a HF BERT tensor, or None for one the converter drops."""
    if hf.startswith(("cls.", "pooler.")) or hf == "embeddings.position_ids":
        return None
    fixed = {"embeddings.word_embeddings": "token_embd",
             "embeddings.token_type_embeddings": "token_types",
             "embeddings.position_embeddings": "position_embd",
             "embeddings.LayerNorm": "token_embd_norm"}
    layer = {"attention.self.query": "attn_q", "attention.self.key": "attn_k",
             "attention.self.value": "attn_v", "attention.output.dense": "attn_output",
             "attention.output.LayerNorm": "attn_output_norm", "intermediate.dense": "ffn_up",
             "output.dense": "ffn_down", "output.LayerNorm": "layer_output_norm"}
    module, kind = hf.rsplit(".", 1)
    if module in fixed:
        return fixed[module] + "." + kind
    parts = module.split(".")
    assert parts[:2] == ["encoder", "layer"], hf
    return "blk.%s.%s.%s" % (parts[2], layer[".".join(parts[3:])], kind)


def phantom(token, toktype):
    """convert_hf_to_gguf's BertModel.set_vocab spelling of a vocab.txt token."""
    if toktype == CONTROL:
        return token
    if token.startswith("##"):
        return token[2:]
    return "\u2581" + token


def convert(name, file_type):
    folder = os.path.join(BERT, name)
    with open(os.path.join(folder, "config.json"), encoding="utf-8") as f:
        cfg = json.load(f)
    with open(os.path.join(folder, "vocab.txt"), encoding="utf-8") as f:
        tokens = f.read().split("\n")[:-1]
    assert tokens == VOCAB
    types = [CONTROL if t in SPECIAL else NORMAL for t in tokens]
    ids = {t: tokens.index(t) for t in SPECIAL}
    meta = [
        ("general.architecture", "string", "bert"), ("general.name", "string", name),
        ("general.file_type", "uint32", FILE_TYPES[file_type]),
        ("general.alignment", "uint32", 32),
        ("bert.block_count", "uint32", cfg["num_hidden_layers"]),
        ("bert.context_length", "uint32", cfg["max_position_embeddings"]),
        ("bert.embedding_length", "uint32", cfg["hidden_size"]),
        ("bert.feed_forward_length", "uint32", cfg["intermediate_size"]),
        ("bert.attention.head_count", "uint32", cfg["num_attention_heads"]),
        ("bert.attention.layer_norm_epsilon", "float32", cfg["layer_norm_eps"]),
        ("bert.attention.causal", "bool", False),
        ("tokenizer.ggml.model", "string", "bert"), ("tokenizer.ggml.pre", "string", "default"),
        ("tokenizer.ggml.tokens", "array", ("string", list(map(phantom, tokens, types)))),
        ("tokenizer.ggml.token_type", "array", ("int32", types)),
        ("tokenizer.ggml.token_type_count", "uint32", cfg["type_vocab_size"]),
        ("tokenizer.ggml.unknown_token_id", "uint32", ids["[UNK]"]),
        ("tokenizer.ggml.seperator_token_id", "uint32", ids["[SEP]"]),  # gguf-py's spelling
        ("tokenizer.ggml.padding_token_id", "uint32", ids["[PAD]"]),
        ("tokenizer.ggml.cls_token_id", "uint32", ids["[CLS]"]),
        ("tokenizer.ggml.mask_token_id", "uint32", ids["[MASK]"]),
    ]
    tensors = []
    for stored, w in read_safetensors(os.path.join(folder, "model.safetensors")).items():
        gg = gguf_name(hf_name(stored))
        if gg is None:
            continue
        w = np.ascontiguousarray(w, dtype=np.float32)
        kept_f32 = w.ndim == 1 or gg.split(".")[0] in ("position_embd", "token_types")
        kind = "F32" if kept_f32 else file_type
        rows, cols = (1, w.shape[0]) if w.ndim == 1 else w.shape
        tensors.append((gg, kind, list(reversed(w.shape)), quantize(kind, w.reshape(rows, cols))))
    write_gguf(os.path.join(OUT, name + ".gguf"), meta, tensors)


def main():
    convert("bert-f32", "F32")
    convert("bert-bf16", "BF16")


if __name__ == "__main__":
    main()
