"""Knocking heads out in the reference forwards, as TransformerLens's ablations do on
hook_z: the heads that the switches' "knock_out" names ("L.H,L.H"), in this layer, have
their outputs P·V_h (the heads side by side, before the output projection) set to 0
("knock_out_mode": "zero", the default) or to their mean over the positions ("mean").
Knock-outs act in every layer, whatever only_layer says."""


def knock_out(merged, layer, sw, heads):
    """merged (B, T, H·d) → the same with this layer's knocked-out heads replaced."""
    spec = sw.get("knock_out")
    if not spec:
        return merged
    B, T, width = merged.shape
    z = merged.reshape(B, T, heads, width // heads).clone()
    for entry in spec.split(","):
        l, h = (int(part) for part in entry.split("."))
        if l != layer:
            continue
        if sw.get("knock_out_mode", "zero") == "zero":
            z[:, :, h] = 0
        else:
            z[:, :, h] = z[:, :, h].mean(dim=1, keepdim=True)
    return z.reshape(B, T, width)


def head_importance(logits_of, layers, heads):
    """Each head knocked out alone (zero): logits_of(spec) gives the logits (V) at the
    predicted position with the heads `spec` names knocked out (None: intact). The target is
    the intact top 1 (ties by the lower id); the change is log p(target) knocked out minus
    intact, in double."""
    import torch

    intact = logits_of(None)
    target = int(torch.sort(-intact, stable=True).indices[0])
    base = torch.log_softmax(intact.double(), dim=0)[target].item()
    change = [[torch.log_softmax(logits_of(f"{l}.{h}").double(), dim=0)[target].item() - base
               for h in range(heads)] for l in range(layers)]
    return {"target": target, "intact": base, "change": change}
