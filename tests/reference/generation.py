"""Greedy decoding in the reference forwards, as Hugging Face's generate(do_sample=False)
writes: the whole text run again for every new token (no cache, so that AttnScope's KV cache
is checked against a forward that has none), the most probable token taken (torch.argmax: the
first, i.e. the lowest id, of equal logits), stopping at an end token, at the asked number of
tokens or at the context length. Each step records the top 5 {"ids", "probabilities"} of the
softmax (in double) it chose from."""

import torch

# (name, switches, only_layer): the textbook formula, switches a KV cache serves, and two it
# cannot (the softmax over the queries; a finite fill, which the cache serves too).
GENERATION_CASES = [
    ("textbook", {}, -1),
    ("scale=none", {"scale": "none"}, -1),
    ("knock_out=0.1", {"knock_out": "0.1"}, -1),
    ("mask_fill=-1e9", {"mask_fill": "-1e9"}, -1),
    ("only_layer=1 axis=queries", {"axis": "queries"}, 1),
    ("knock_out=1.0 mean", {"knock_out": "1.0", "knock_out_mode": "mean"}, -1),
]


def greedy(last_logits, prompt, tokens, end_tokens, max_positions):
    """last_logits(ids) → the logits (V) after the last id."""
    ids, steps = list(prompt), []
    while len(ids) - len(prompt) < tokens and len(ids) < max_positions:
        logits = last_logits(ids)
        p = torch.softmax(logits.double(), dim=0)
        order = torch.sort(-logits, stable=True).indices[:5].tolist()
        steps.append({"ids": order, "probabilities": [p[i].item() for i in order]})
        ids.append(order[0])
        if order[0] in end_tokens:
            break
    return {"generated_ids": ids[len(prompt):], "steps": steps}


def generations(forward, textbook, prompt, tokens, end_tokens, max_positions):
    """forward(ids, switches, only_layer) → the logits after the last id; one entry a case."""
    out = []
    for name, switches, only_layer in GENERATION_CASES:
        sw = dict(textbook, **switches)
        out.append(dict({"name": name, "switches": switches, "only_layer": only_layer,
                         "prompt_ids": list(prompt), "tokens": tokens},
                        **greedy(lambda ids: forward(ids, sw, only_layer), prompt, tokens,
                                 end_tokens, max_positions)))
    return out
