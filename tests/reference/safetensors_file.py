"""The safetensors writer every generator here uses: an 8-byte little-endian header length,
the JSON header padded with spaces to a multiple of 8, then each tensor's little-endian
bytes, in the order given."""
import json
import struct

import torch

DTYPE_NAMES = {torch.float32: "F32", torch.float16: "F16", torch.bfloat16: "BF16",
               torch.float64: "F64", torch.int64: "I64"}


def tensor_bytes(tensor):
    tensor = tensor.contiguous()
    if tensor.dtype in (torch.bfloat16, torch.float16):
        return tensor.view(torch.int16).numpy().astype("<i2").tobytes()
    array = tensor.numpy()
    return array.astype(array.dtype.newbyteorder("<")).tobytes()


def write_safetensors(path, tensors, metadata=None, compact=True):
    """tensors: (name, tensor) pairs, or a dict name -> tensor or (dtype name, tensor); each
    stored in its own dtype (which the dtype name, where given, must be).
    `compact` writes the header without spaces (the models' files), else as json.dumps does
    with its default separators and UTF-8 names (the attention files')."""
    items = tensors.items() if isinstance(tensors, dict) else tensors
    header, blobs, offset = {}, [], 0
    if metadata is not None:
        header["__metadata__"] = metadata
    for name, tensor in items:
        if isinstance(tensor, tuple):
            declared, tensor = tensor
            assert DTYPE_NAMES[tensor.dtype] == declared, (name, declared, tensor.dtype)
        raw = tensor_bytes(tensor)
        header[name] = {"dtype": DTYPE_NAMES[tensor.dtype], "shape": list(tensor.shape),
                        "data_offsets": [offset, offset + len(raw)]}
        blobs.append(raw)
        offset += len(raw)
    if compact:
        text = json.dumps(header, separators=(",", ":")).encode()
    else:
        text = json.dumps(header, ensure_ascii=False).encode("utf-8")
    text += b" " * (-len(text) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)) + text + b"".join(blobs))
