#!/usr/bin/env python3
"""Vocabulary-only GGUF files (no tensors) made from the real tokenizers committed under
tests/data, with tokenizer.ggml.* as llama.cpp's convert_hf_to_gguf.py writes them, for
tst_gguftokenizer; gen_gguf_ids.js asks llama.cpp itself for the ids of texts on these very
files (tests/reference/gguf_ids.json).

- qwen3-vocab.gguf (tests/data/qwen3): _set_vocab_gpt2. Model "gpt2", pre "qwen2"; the tokens
  by id, padded to config.json's vocab_size 151936 with "[PAD<id>]" of type UNUSED (5);
  added tokens CONTROL (3) when special or when they look special ("<|…|>"), USER_DEFINED (4)
  otherwise (<think>, <tool_call> …), the rest NORMAL (1) (get_vocab_base,
  does_token_look_special); the merges as "a b"; bos = pad = <|endoftext|> (config.json's
  bos_token_id), eos = <|im_end|>, add_bos_token false (tokenizer_config.json).
- mistral-vocab.gguf (tests/data/mistral, Mistral 7B v0.1): _set_vocab_sentencepiece. Model
  "llama", pre "default"; the tokens in id order; types BYTE (6) for <0xNN>, UNKNOWN (2) for
  <unk>, CONTROL (3) for <s> and </s>, NORMAL otherwise. The real file takes the scores from
  tokenizer.model, which is not committed here; the Hugging Face vocabulary is in the order of
  those scores, so a normal piece's score is -id and the others' 0. Whatever the scores, the
  test compares with llama.cpp on this very file. bos 1, eos 2, unk 0, add_bos_token true,
  add_eos_token false, add_space_prefix true.
- gpt2-vocab.gguf (tests/data/gpt2): _set_vocab_gpt2 with pre "gpt-2"; <|endoftext|> (50256)
  an added special token, so CONTROL; bos = eos = 50256; GPT-2's tokenizer_config.json says
  nothing of add_bos_token, so the file does not either (llama.cpp's default decides).

Each file is written zipped (deflate), as <name>.gguf.zip holding <name>.gguf, to
tests/data/gguf/. Run with /usr/bin/python3 (numpy only for the writer).
"""
import io
import json
import os
import zipfile

from gguf_file import gguf_bytes

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "data")
OUT = os.path.join(DATA, "gguf")

NORMAL, UNKNOWN, CONTROL, USER_DEFINED, UNUSED, BYTE = 1, 2, 3, 4, 5, 6


def zipped_json(model):
    with zipfile.ZipFile(os.path.join(DATA, model, "tokenizer.json.zip")) as z:
        return json.loads(z.read("tokenizer.json"))


def looks_special(token):
    """convert_hf_to_gguf.py's does_token_look_special."""
    return (token in ("<pad>", "<mask>", "<2mass>", "[@BOS@]")
            or (token.startswith("<|") and token.endswith("|>"))
            or (token.startswith("<\uff5c") and token.endswith("\uff5c>"))
            or (token.startswith("<unused") and token.endswith(">")))


def bpe_tokens(vocab, added, vocab_size):
    """get_vocab_base: tokens and types by id. vocab: text -> id; added: id -> (text,
    special), the added tokens (none of Qwen3's or GPT-2's changes when encoded and decoded)."""
    by_id = {i: t for t, i in vocab.items()}
    by_id.update({i: t for i, (t, _) in added.items()})
    tokens, types = [], []
    for i in range(vocab_size):
        if i not in by_id:
            tokens.append("[PAD%d]" % i)
            types.append(UNUSED)
        elif i in added:
            text, special = added[i]
            tokens.append(text if special or looks_special(text) else text.replace("\u2581", " "))
            types.append(CONTROL if special or looks_special(text) else USER_DEFINED)
        else:
            tokens.append(by_id[i])
            types.append(NORMAL)
    return tokens, types


def merge_texts(merges):
    return [m if isinstance(m, str) else " ".join(m) for m in merges]


def bpe_metadata(architecture, pre, tokens, types, merges, special_ids, add_bos):
    metadata = [
        ("general.architecture", "string", architecture),
        ("general.name", "string", architecture + " vocabulary"),
        ("tokenizer.ggml.model", "string", "gpt2"),
        ("tokenizer.ggml.pre", "string", pre),
        ("tokenizer.ggml.tokens", "array", ("string", tokens)),
        ("tokenizer.ggml.token_type", "array", ("int32", types)),
        ("tokenizer.ggml.merges", "array", ("string", merges)),
    ]
    for name, token_id in special_ids:
        metadata.append(("tokenizer.ggml.%s_token_id" % name, "uint32", token_id))
    if add_bos is not None:
        metadata.append(("tokenizer.ggml.add_bos_token", "bool", add_bos))
    return metadata


def qwen3():
    tj = zipped_json("qwen3")
    added = {a["id"]: (a["content"], a["special"]) for a in tj["added_tokens"]}
    tokens, types = bpe_tokens(tj["model"]["vocab"], added, 151936)
    ids = {t: i for i, t in enumerate(tokens)}
    special = [("bos", ids["<|endoftext|>"]), ("eos", ids["<|im_end|>"]),
               ("padding", ids["<|endoftext|>"])]
    return bpe_metadata("qwen3", "qwen2", tokens, types, merge_texts(tj["model"]["merges"]),
                        special, False)


def gpt2():
    with open(os.path.join(DATA, "gpt2", "vocab.json"), encoding="utf-8") as f:
        vocab = json.load(f)
    with open(os.path.join(DATA, "gpt2", "merges.txt"), encoding="utf-8") as f:
        merges = [line.rstrip("\n") for line in f if line.strip() and not line.startswith("#")]
    eot = vocab["<|endoftext|>"]
    tokens, types = bpe_tokens(vocab, {eot: ("<|endoftext|>", True)}, len(vocab))
    return bpe_metadata("gpt2", "gpt-2", tokens, types, merges, [("bos", eot), ("eos", eot)],
                        None)


def mistral():
    tj = zipped_json("mistral")
    vocab = tj["model"]["vocab"]
    tokens = [None] * len(vocab)
    for text, i in vocab.items():
        tokens[i] = text
    types, scores = [], []
    for i, text in enumerate(tokens):
        if text == "<unk>":
            types.append(UNKNOWN)
        elif text in ("<s>", "</s>"):
            types.append(CONTROL)
        elif len(text) == 6 and text.startswith("<0x") and text.endswith(">"):
            types.append(BYTE)
        else:
            types.append(NORMAL)
        scores.append(-float(i) if types[-1] == NORMAL else 0.0)
    return [
        ("general.architecture", "string", "llama"),
        ("general.name", "string", "mistral vocabulary"),
        ("tokenizer.ggml.model", "string", "llama"),
        ("tokenizer.ggml.pre", "string", "default"),
        ("tokenizer.ggml.tokens", "array", ("string", tokens)),
        ("tokenizer.ggml.scores", "array", ("float32", scores)),
        ("tokenizer.ggml.token_type", "array", ("int32", types)),
        ("tokenizer.ggml.bos_token_id", "uint32", vocab["<s>"]),
        ("tokenizer.ggml.eos_token_id", "uint32", vocab["</s>"]),
        ("tokenizer.ggml.unknown_token_id", "uint32", vocab["<unk>"]),
        ("tokenizer.ggml.add_bos_token", "bool", True),
        ("tokenizer.ggml.add_eos_token", "bool", False),
        ("tokenizer.ggml.add_space_prefix", "bool", True),
    ]


def write_zipped(name, metadata):
    member = name + ".gguf"
    data = gguf_bytes(metadata, [])
    path = os.path.join(OUT, member + ".zip")
    # A fixed date: the zip's bytes depend on the vocabulary alone.
    info = zipfile.ZipInfo(member, date_time=(2024, 1, 1, 0, 0, 0))
    info.compress_type = zipfile.ZIP_DEFLATED
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as z:
        z.writestr(info, data, compresslevel=9)
    with open(path, "wb") as f:
        f.write(buffer.getvalue())
    print("%s: %d bytes, zipped %d" % (path, len(data), len(buffer.getvalue())))


def main():
    os.makedirs(OUT, exist_ok=True)
    write_zipped("qwen3-vocab", qwen3())
    write_zipped("mistral-vocab", mistral())
    write_zipped("gpt2-vocab", gpt2())


if __name__ == "__main__":
    main()
