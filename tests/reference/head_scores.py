"""Head scores (TransformerLens's head detector, as AttnScope defines them over the
positions [first, end) of a sequence that repeats a copy of N tokens) and attention rollout
(Abnar & Zuidema 2020), from a forward's attention: a list over the layers of P (H, T, T)."""

import torch


def head_scores(layers, ids, first, end):
    count = end - first
    half = count // 2
    copy = half if count % 2 == 0 and ids[first:first + half] == ids[first + half:end] else 0
    previous, duplicate, induction = [], [], []
    for P in layers:
        P = P.double()
        previous.append([sum(P[h, i, i - 1].item() for i in range(first + 1, end)) / (count - 1)
                         for h in range(P.shape[0])])
        if copy:
            second = range(first + copy, end)
            duplicate.append([sum(P[h, i, i - copy].item() for i in second) / copy
                              for h in range(P.shape[0])])
            induction.append([sum(P[h, i, i - copy + 1].item() for i in second) / copy
                              for h in range(P.shape[0])])
    return {"ids": ids, "first": first, "end": end, "copy": copy, "previous_token": previous,
            "duplicate_token": duplicate if copy else None,
            "induction": induction if copy else None, "rollout": rollout(layers)}


def rollout(layers):
    T = layers[0].shape[-1]
    R = torch.eye(T, dtype=torch.float64)
    for P in layers:
        A = P.double().mean(0) + torch.eye(T, dtype=torch.float64)
        A = A / A.sum(-1, keepdim=True)
        R = A @ R
    return R.tolist()
