"""Today's models' switches inside a model's layer, for the model generators
(gen_gpt2_model.py, gen_llama_model.py): soft-capping, the sliding window and the sink, after
HF's modeling_gemma2 (attn_logit_softcapping), modeling_mistral (the sliding-window mask) and
modeling_gpt_oss (the sinks), with AttnScope's spelling of the switches: "softcap" c (None:
off), "window" W (None: off) and "sink" s (None: off), beside the 2017 formula's."""

import torch
import torch.nn.functional as F


def window_mask(M, T, W, causal):
    """M | the window's: key j hidden from query i when i - j >= W, and without the causal
    mask also when j - i >= W."""
    if not W:
        return M
    ones = torch.ones(T, T, dtype=torch.bool)
    M = M | torch.tril(ones, -W)
    if not causal:
        M = M | torch.triu(ones, W)
    return M


def attention_weights(logits, M, sw):
    """P from the scaled logits (B, H, T, T) and the causal mask M, as the switches say: the cap
    c·tanh(L/c), the window joined to the mask, the fill before the softmax or the zeros after
    it, the sink's logit in every row of a softmax over the keys."""
    T = logits.shape[-1]
    if sw.get("softcap"):
        c = sw["softcap"]
        logits = c * torch.tanh(logits / c)
    M = window_mask(M, T, sw.get("window"), sw["mask"] == "causal")
    fill = {"neg-inf": float("-inf"), "-1e9": -1e9}[sw["mask_fill"]]
    dim = {"keys": -1, "queries": -2, "batch": 0}[sw["axis"]]
    before = sw["mask_stage"] == "before-softmax"
    L = logits.masked_fill(M, fill) if before else logits
    if sw.get("sink") is not None:
        assert dim == -1, "a sink needs the softmax over the keys"
        sinks = torch.full(L.shape[:-1] + (1,), float(sw["sink"]))
        combined = torch.cat([L, sinks], dim=-1)
        combined = combined - combined.max(dim=-1, keepdim=True).values
        P = F.softmax(combined, dim=-1)[..., :-1]
    else:
        P = F.softmax(L, dim=dim)
    return P if before else P.masked_fill(M, 0)
