"""MiniLM's matrix products computed in int8, not only stored in it.

The shipped ONNX file keeps its weights as int8 with a scale per column, and turns each
back into float32 before its MatMul (Cast, then Mul). onnxruntime folds that once at
load, so every product reads float32 weights: for a short query, a product of a few rows
with 40 MB of weights, bound by memory (6-7 ms a query here). Rewritten as onnxruntime's
`DynamicQuantizeMatMul` (activations quantised per call, the int8 weights read as they
are, VNNI kernels where the CPU has them), a query costs ~2 ms and a batch of passages
~40 % less; vectors agree with the float ones at cosine ~0.993.

The rewrite edits the model's protobuf bytes directly (the wire format is small and
stable; the `onnx` package would be a 16 MB dependency for it): each MatMul whose weight
is `Mul(Cast(int8 initializer), scale initializer)` becomes
`DynamicQuantizeMatMul(x, int8 initializer, scale)`, the Cast and Mul that fed only it are
dropped, and the `com.microsoft` operator set is declared.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

# Field numbers of onnx.proto (ModelProto, GraphProto, NodeProto, TensorProto).
_MODEL_OPSET, _MODEL_GRAPH = 8, 7
_GRAPH_NODE, _GRAPH_INITIALIZER = 1, 5
_NODE_INPUT, _NODE_OUTPUT, _NODE_OP_TYPE, _NODE_DOMAIN = 1, 2, 4, 7
_TENSOR_DATA_TYPE, _TENSOR_NAME = 2, 8
_INT8 = 3  # TensorProto.DataType
_LENGTH = 2  # wire type of strings, bytes and messages
MS_DOMAIN = "com.microsoft"


class RewriteError(ValueError):
    """The bytes are not a model this rewrite understands."""


def _varint(data: bytes | memoryview, pos: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        if pos >= len(data):
            raise RewriteError("truncated varint")
        byte = data[pos]
        pos += 1
        value |= (byte & 0x7F) << shift
        if byte < 0x80:
            return value, pos
        shift += 7
        if shift > 63:
            raise RewriteError("varint too long")


def _put_varint(value: int) -> bytes:
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def _fields(data: memoryview) -> Iterator[tuple[int, int, memoryview]]:
    """(field number, wire type, the field's whole encoding) of a message, in order; for a
    length-delimited field the payload is `_payload(encoding)`."""
    pos = 0
    while pos < len(data):
        start = pos
        key, pos = _varint(data, pos)
        number, wire = key >> 3, key & 7
        if wire == 0:
            _, pos = _varint(data, pos)
        elif wire == 1:
            pos += 8
        elif wire == _LENGTH:
            size, pos = _varint(data, pos)
            pos += size
        elif wire == 5:
            pos += 4
        else:
            raise RewriteError(f"unsupported wire type {wire}")
        if pos > len(data):
            raise RewriteError("truncated field")
        yield number, wire, data[start:pos]


def _payload(encoding: memoryview) -> memoryview:
    _, pos = _varint(encoding, 0)
    _, pos = _varint(encoding, pos)
    return encoding[pos:]


def _field(number: int, payload: bytes) -> bytes:
    return _put_varint(number << 3 | _LENGTH) + _put_varint(len(payload)) + payload


def _text(number: int, text: str) -> bytes:
    return _field(number, text.encode("utf-8"))


@dataclass
class _Node:
    inputs: list[str] = field(default_factory=list)
    outputs: list[str] = field(default_factory=list)
    op_type: str = ""
    domain: str = ""


def _node(encoding: memoryview) -> _Node:
    node = _Node()
    for number, wire, enc in _fields(_payload(encoding)):
        if wire != _LENGTH:
            continue
        value = str(_payload(enc), "utf-8", "replace")
        if number == _NODE_INPUT:
            node.inputs.append(value)
        elif number == _NODE_OUTPUT:
            node.outputs.append(value)
        elif number == _NODE_OP_TYPE:
            node.op_type = value
        elif number == _NODE_DOMAIN:
            node.domain = value
    return node


def _int8_initializers(graph: list[tuple[int, int, memoryview]]) -> tuple[set[str], set[str]]:
    """(names of int8 initializers, names of all initializers)."""
    int8, names = set(), set()
    for number, _, enc in graph:
        if number != _GRAPH_INITIALIZER:
            continue
        name, dtype = "", 0
        for f, wire, e in _fields(_payload(enc)):
            if f == _TENSOR_NAME and wire == _LENGTH:
                name = str(_payload(e), "utf-8", "replace")
            elif f == _TENSOR_DATA_TYPE and wire == 0:
                dtype = _varint(e, _varint(e, 0)[1])[0]  # the value after the key
        names.add(name)
        if dtype == _INT8:
            int8.add(name)
    return int8, names


def _quantised_matmul(x: str, weight: str, scale: str, outputs: list[str]) -> bytes:
    body = b"".join(
        [
            *(_text(_NODE_INPUT, name) for name in (x, weight, scale)),
            *(_text(_NODE_OUTPUT, name) for name in outputs),
            _text(_NODE_OP_TYPE, "DynamicQuantizeMatMul"),
            _text(_NODE_DOMAIN, MS_DOMAIN),
        ]
    )
    return _field(_GRAPH_NODE, body)


def _rewrite_graph(graph_bytes: memoryview) -> tuple[bytes, int]:
    graph = list(_fields(graph_bytes))
    int8, initializers = _int8_initializers(graph)
    nodes = {i: _node(enc) for i, (number, _, enc) in enumerate(graph) if number == _GRAPH_NODE}
    producer = {out: i for i, n in nodes.items() for out in n.outputs}
    readers: dict[str, int] = {}
    for n in nodes.values():
        for name in n.inputs:
            readers[name] = readers.get(name, 0) + 1
    replaced: dict[int, bytes | memoryview] = {}
    dropped: set[int] = set()
    for i, n in nodes.items():
        if n.op_type != "MatMul" or n.domain or len(n.inputs) != 2:
            continue
        mul_at = producer.get(n.inputs[1])
        mul = nodes.get(mul_at) if mul_at is not None else None
        if mul is None or mul.op_type != "Mul" or len(mul.inputs) != 2:
            continue
        cast_at = producer.get(mul.inputs[0])
        cast = nodes.get(cast_at) if cast_at is not None else None
        scale = mul.inputs[1]
        if cast is None or cast.op_type != "Cast" or scale not in initializers:
            continue
        weight = cast.inputs[0] if cast.inputs else ""
        if weight not in int8:
            continue
        replaced[i] = _quantised_matmul(n.inputs[0], weight, scale, n.outputs)
        # The float weight is gone once no other node reads it.
        if readers.get(n.inputs[1]) == 1 and mul_at is not None:
            dropped.add(mul_at)
            if readers.get(mul.inputs[0]) == 1 and cast_at is not None:
                dropped.add(cast_at)
    kept = [replaced.get(i, enc) for i, (_, _, enc) in enumerate(graph) if i not in dropped]
    return b"".join(kept), len(replaced)


def rewrite(model: bytes) -> tuple[bytes, int]:
    """(the model with its int8-weighted MatMuls computed in int8, how many were rewritten);
    the bytes unchanged when none was.

    Raises:
        RewriteError: the bytes are not a readable ONNX model.
    """
    parts = list(_fields(memoryview(model)))
    graphs = [i for i, (number, wire, _) in enumerate(parts) if number == _MODEL_GRAPH]
    if len(graphs) != 1 or parts[graphs[0]][1] != _LENGTH:
        raise RewriteError("no graph in the model")
    graph, count = _rewrite_graph(_payload(parts[graphs[0]][2]))
    if not count:
        return model, 0
    declared = any(
        str(_payload(e), "utf-8", "replace") == MS_DOMAIN
        for number, _, enc in parts
        if number == _MODEL_OPSET
        for f, wire, e in _fields(_payload(enc))
        if f == 1 and wire == _LENGTH
    )
    header = _put_varint(_MODEL_GRAPH << 3 | _LENGTH) + _put_varint(len(graph))
    out: list[bytes | memoryview] = []
    for i, (_, _, enc) in enumerate(parts):
        out += [header, graph] if i == graphs[0] else [enc]
    if not declared:
        out.append(_field(_MODEL_OPSET, _text(1, MS_DOMAIN) + _put_varint(2 << 3) + _put_varint(1)))
    return b"".join(out), count
