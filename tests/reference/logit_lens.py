"""The logit lens in the reference forwards: the residual stream after each block put
through the family's final norm and output head, read as a prediction. One entry a
block, each a list over the positions of the top 5 {"ids", "probabilities"} (softmax in
double, ties by lower id as AttnScope orders them), or None where a logit is not finite."""

import torch


def top5(logits):
    """logits (T, V) → one entry a position."""
    out = []
    for row in logits:
        if not bool(torch.isfinite(row).all()):
            out.append(None)
            continue
        p = torch.softmax(row.double(), dim=0)
        # Most probable first, ties by the lower id (a stable sort of −logit).
        order = torch.sort(-row, stable=True).indices[:5].tolist()
        out.append({"ids": order, "probabilities": [p[i].item() for i in order]})
    return out
