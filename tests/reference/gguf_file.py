"""The GGUF writer the generators here use: ggml's docs/gguf.md, little-endian, version 3 (or
2), metadata of any value type, tensor infos, the data aligned to general.alignment (32 unless
given). A small writer of our own, so that the tests' files say exactly what they hold.

write_gguf(path, metadata, tensors): metadata is a list of (key, value type, value), value
type one of the names in VALUE_TYPES ("array" values are (element type, list)); tensors a list
of (name, ggml type name, ne, raw bytes), ne in ggml's order (ne[0] a row's length).
"""
import struct

from ggml_blocks import TYPE_IDS, row_bytes

VALUE_TYPES = {"uint8": 0, "int8": 1, "uint16": 2, "int16": 3, "uint32": 4, "int32": 5,
               "float32": 6, "bool": 7, "string": 8, "array": 9, "uint64": 10, "int64": 11,
               "float64": 12}
_FORMATS = {"uint8": "<B", "int8": "<b", "uint16": "<H", "int16": "<h", "uint32": "<I",
            "int32": "<i", "float32": "<f", "bool": "<?", "uint64": "<Q", "int64": "<q",
            "float64": "<d"}


def _string(text):
    raw = text.encode("utf-8") if isinstance(text, str) else bytes(text)
    return struct.pack("<Q", len(raw)) + raw


def _value(kind, value):
    if kind == "string":
        return _string(value)
    if kind == "array":
        element, items = value
        out = struct.pack("<IQ", VALUE_TYPES[element], len(items))
        if element in _FORMATS:  # numbers in one pack: vocabularies have 150,000 of them
            return out + struct.pack("<%d%s" % (len(items), _FORMATS[element][1]), *items)
        return out + b"".join(_value(element, item) for item in items)
    return struct.pack(_FORMATS[kind], value)


def gguf_bytes(metadata, tensors, alignment=32, version=3):
    out = bytearray(b"GGUF" + struct.pack("<IQQ", version, len(tensors), len(metadata)))
    for key, kind, value in metadata:
        out += _string(key) + struct.pack("<I", VALUE_TYPES[kind]) + _value(kind, value)
    offset, blobs = 0, []
    for name, type_name, ne, raw in tensors:
        rows = 1
        for n in ne[1:]:
            rows *= n
        assert len(raw) == row_bytes(type_name, ne[0]) * rows, (name, type_name, ne)
        out += _string(name) + struct.pack("<I", len(ne)) + struct.pack("<%dQ" % len(ne), *ne)
        out += struct.pack("<IQ", TYPE_IDS[type_name], offset)
        padded = raw + b"\0" * (-len(raw) % alignment)
        blobs.append(padded)
        offset += len(padded)
    out += b"\0" * (-len(out) % alignment)
    for blob in blobs:
        out += blob
    return bytes(out)


def write_gguf(path, metadata, tensors, alignment=32, version=3):
    with open(path, "wb") as f:
        f.write(gguf_bytes(metadata, tensors, alignment, version))
