"""Pickles read as plain data, never executed: a restricted unpickler.

A pickle names classes and functions and asks the reader to import and call them; loading one
with `pickle.load` runs whatever code it names (AgentLab's viewer fails on pickles of agent
classes it cannot import, AgentLab #96 / #179, and would run a hostile one). This reader imports
nothing: every class or function a pickle names becomes a `StandIn` type recording its name,
its arguments and the state the pickle gives it, so a custom agent's objects read as well as
BrowserGym's own. A few harmless builtin types (set, frozenset, bytearray, complex, OrderedDict,
datetime's) are the real ones, and NumPy's scalars and small numeric arrays are decoded from
their bytes into numbers. Names that would run code if called (os.system, builtins.eval,
subprocess, importlib, ...) are refused outright: the file is reported, nothing is called.

`plain(obj)` turns what was read into JSON-like data (dicts, lists, strings, numbers) for
models; `field(obj, name)` reaches into a stand-in or a dict without converting the rest (a
step's DOM snapshot is large and never needed).
"""

from __future__ import annotations

import collections
import datetime as dt
import gzip
import io
import pickle
import struct
import zlib
from collections.abc import Callable
from typing import Any, ClassVar

__all__ = [
    "PickleRefusedError",
    "StandIn",
    "field",
    "load_gzip_pickle",
    "load_pickle",
    "plain",
]

PICKLE_READ_LIMIT = 256 * 1024 * 1024
"""Bytes of one decompressed pickle read at most (a step with its DOM snapshot is a few MB)."""
_MAX_DEPTH = 60  # nesting `plain` follows; deeper parts become a marker
_MAX_ARRAY = 256  # elements of a NumPy array decoded into numbers; larger ones are described

# Modules whose names, called, run code or reach the system: a pickle naming one is refused.
_REFUSED_MODULES = frozenset(
    {
        "os",
        "posix",
        "nt",
        "posixpath",
        "ntpath",
        "subprocess",
        "sys",
        "shutil",
        "importlib",
        "runpy",
        "socket",
        "pty",
        "ctypes",
        "multiprocessing",
        "code",
        "codeop",
        "pickle",
        "_pickle",
        "marshal",
        "types",
        "functools",
        "operator",
        "webbrowser",
        "pdb",
        "timeit",
        "commands",
        "popen2",
        "platform",
        "signal",
        "threading",
        "_thread",
        "asyncio",
        "io",
        "_io",
        "tempfile",
        "glob",
        "urllib",
        "http",
        "requests",
        "builtins",
        "__builtin__",
    }
)
# Builtins that only build data: the real types are given for these names.
_SAFE_BUILTINS: dict[str, type] = {
    t.__name__: t
    for t in (
        object,
        set,
        frozenset,
        bytearray,
        bytes,
        complex,
        slice,
        range,
        list,
        dict,
        tuple,
        str,
        int,
        float,
        bool,
    )
}
_SAFE_TYPES: dict[tuple[str, str], type] = {
    ("collections", "OrderedDict"): collections.OrderedDict,
    ("collections", "defaultdict"): collections.defaultdict,
    ("datetime", "datetime"): dt.datetime,
    ("datetime", "date"): dt.date,
    ("datetime", "time"): dt.time,
    ("datetime", "timedelta"): dt.timedelta,
    ("datetime", "timezone"): dt.timezone,
}
_NUMPY_MODULES = ("numpy.core.multiarray", "numpy._core.multiarray", "numpy")
_NUMBER_CODES = {"f": "d", "i": "q", "u": "Q", "b": "?"}  # NumPy kind -> struct format (8 bytes)
_STRUCT_BY_KIND_SIZE = {
    ("f", 2): "e",
    ("f", 4): "f",
    ("f", 8): "d",
    ("i", 1): "b",
    ("i", 2): "h",
    ("i", 4): "i",
    ("i", 8): "q",
    ("u", 1): "B",
    ("u", 2): "H",
    ("u", 4): "I",
    ("u", 8): "Q",
    ("b", 1): "?",
}


class PickleRefusedError(pickle.UnpicklingError):
    """A pickle that names something which, called, would run code: it is not read at all."""


class StandIn:
    """What a pickled object of any class becomes: the class's dotted name, the arguments the
    pickle called it with, the state it set and the items it added; no code of the class runs.
    """

    __slots__ = ("args", "entries", "items", "state")
    args: tuple[Any, ...]
    """The arguments the pickle built it with (REDUCE, NEWOBJ)."""
    entries: dict[Any, Any]
    """Items set as in a dict (a dict subclass's SETITEMS)."""
    items: list[Any]
    """Items added as to a list (a list subclass's APPENDS)."""
    state: Any
    """The state the pickle set (BUILD): a dataclass's fields as a dict, or a tuple; None when none."""
    qualname: ClassVar[str] = "object"
    """The dotted name of the class (or function) the pickle named."""

    def __new__(cls, *args: Any, **_kwargs: Any) -> StandIn:
        """An empty stand-in holding the arguments it was built with (NEWOBJ, REDUCE)."""
        obj = object.__new__(cls)
        obj.args = args
        obj.state = None
        obj.items = []
        obj.entries = {}
        return obj

    def __init__(self, *_args: Any, **_kwargs: Any) -> None:
        """Nothing to do: `__new__` recorded the arguments (a REDUCE calls the type)."""

    def __setstate__(self, state: Any) -> None:
        self.state = state

    def __setitem__(self, key: Any, value: Any) -> None:
        self.entries[key] = value

    def append(self, value: Any) -> None:
        """A list subclass's item (APPEND)."""
        self.items.append(value)

    def extend(self, values: Any) -> None:
        """A list subclass's items (APPENDS)."""
        self.items.extend(values)

    def __repr__(self) -> str:
        return f"<{self.qualname}>"

    @property
    def attributes(self) -> dict[str, Any]:
        """The state as a mapping (a dataclass's fields; `(dict, slots)` states merged); {} when none."""
        state = self.state
        if isinstance(state, tuple) and len(state) == 2:  # (instance dict, slot values)
            merged: dict[str, Any] = {}
            for part in state:
                if isinstance(part, dict):
                    merged.update(part)
            return merged
        return state if isinstance(state, dict) else {}


class _RestrictedUnpickler(pickle.Unpickler):
    """`pickle.Unpickler` whose `find_class` never imports: stand-ins, safe builtins, or refusal."""

    def __init__(self, file: io.BytesIO) -> None:
        super().__init__(file)
        self._types: dict[tuple[str, str], Any] = {}

    def find_class(self, module: str, name: str) -> Any:
        key = (module, name)
        found = self._types.get(key)
        if found is None:
            found = self._types[key] = _resolve(module, name)
        return found

    def persistent_load(self, pid: Any) -> Any:
        raise pickle.UnpicklingError("the pickle refers to an object stored elsewhere (persistent id)")


def _resolve(module: str, name: str) -> Any:
    if module in ("builtins", "__builtin__") and name in _SAFE_BUILTINS:
        return _SAFE_BUILTINS[name]
    safe = _SAFE_TYPES.get((module, name))
    if safe is not None:
        return safe
    if module.split(".", 1)[0] in _REFUSED_MODULES:
        raise PickleRefusedError(f"it would call {module}.{name}, which can run code; not read")
    special = _SPECIAL.get((module.replace("numpy._core", "numpy.core"), name))
    if special is not None:
        return special
    return type(name, (StandIn,), {"__slots__": (), "qualname": f"{module}.{name}"})


def _reconstructor(cls: Any, base: Any, state: Any) -> Any:
    """copyreg._reconstructor (protocols 0 and 1): an object of `cls` (a stand-in, never called)."""
    if isinstance(cls, type) and issubclass(cls, StandIn):
        obj = cls()
        obj.state = state
        return obj
    return None


def _codecs_encode(text: Any, encoding: str = "utf-8") -> bytes:
    """_codecs.encode, as protocol 2 writes bytes for Python 2 readers: text to bytes, nothing else."""
    if isinstance(text, str) and encoding in ("latin1", "latin-1", "utf-8", "utf8"):
        return text.encode(encoding)
    raise pickle.UnpicklingError(f"_codecs.encode with {encoding!r} is not read")


def _numpy_scalar(dtype: Any, data: Any = None) -> Any:
    """NumPy's scalar(dtype, bytes): the number itself when its type is a plain number."""
    fmt = _struct_format(dtype)
    if fmt is not None and isinstance(data, bytes) and len(data) == struct.calcsize(fmt):
        return struct.unpack(fmt, data)[0]
    return f"<numpy scalar {_dtype_name(dtype)}>"


_SPECIAL: dict[tuple[str, str], Callable[..., Any]] = {
    ("copyreg", "_reconstructor"): _reconstructor,
    ("copy_reg", "_reconstructor"): _reconstructor,
    ("_codecs", "encode"): _codecs_encode,
    ("numpy.core.multiarray", "scalar"): _numpy_scalar,
}


def _dtype_name(dtype: Any) -> str:
    if isinstance(dtype, StandIn) and dtype.args and isinstance(dtype.args[0], str):
        return dtype.args[0]
    return "unknown"


def _struct_format(dtype: Any) -> str | None:
    """The struct format of a NumPy dtype stand-in ('f8' -> '<d'), when it is a plain number."""
    code = _dtype_name(dtype)
    if len(code) < 2 or not code[1:].isdigit():
        return "<?" if code == "b1" else None
    kind, size = code[0], int(code[1:])
    letter = _STRUCT_BY_KIND_SIZE.get((kind, size))
    if letter is None:
        return None
    order = (
        ">"
        if isinstance(dtype, StandIn) and isinstance(dtype.state, tuple) and ">" in dtype.state[1:2]
        else "<"
    )
    return order + letter


def load_pickle(data: bytes) -> Any:
    """The objects of one pickle, read without importing or calling anything it names.

    Raises:
        PickleRefusedError: it names something that would run code.
        pickle.UnpicklingError: it is not a pickle this reader can read (truncated, persistent ids).
    """
    try:
        return _RestrictedUnpickler(io.BytesIO(data)).load()
    except pickle.UnpicklingError:
        raise
    except Exception as exc:  # a broken pickle fails in many ways: one kind of error for callers
        raise pickle.UnpicklingError(f"{type(exc).__name__}: {exc}") from None


def load_gzip_pickle(data: bytes, limit: int = PICKLE_READ_LIMIT) -> Any:
    """`load_pickle` of a gzip'd pickle (AgentLab's `step_N.pkl.gz`), decompressed up to `limit` bytes.

    Raises:
        pickle.UnpicklingError: as `load_pickle`, and when the data is not gzip or decompresses
            beyond `limit`.
    """
    try:
        with gzip.GzipFile(fileobj=io.BytesIO(data)) as stream:
            raw = stream.read(limit + 1)
    except (OSError, EOFError, zlib.error) as exc:
        raise pickle.UnpicklingError(f"not a readable gzip file ({exc})") from None
    if len(raw) > limit:
        raise pickle.UnpicklingError(f"decompresses to more than {limit // (1024 * 1024)} MB; not read")
    return load_pickle(raw)


def field(obj: Any, name: str, default: Any = None) -> Any:
    """`obj.name` of a stand-in (its state) or `obj[name]` of a dict; `default` when absent."""
    if isinstance(obj, StandIn):
        attributes = obj.attributes
        if name in attributes:
            return attributes[name]
        return obj.entries.get(name, default)
    if isinstance(obj, dict):
        return obj.get(name, default)
    return default


def plain(obj: Any, depth: int = 0) -> Any:
    """What was read as JSON-like data: stand-ins become dicts (`__class__` names their class),
    tuples and sets lists, bytes and deep parts short markers, NumPy arrays numbers.
    """
    if obj is None or isinstance(obj, bool | int | float | str):
        return obj
    if depth > _MAX_DEPTH:
        return "<nested too deep>"
    if isinstance(obj, dict):
        return {str(key): plain(value, depth + 1) for key, value in obj.items()}
    if isinstance(obj, list | tuple | set | frozenset):
        return [plain(value, depth + 1) for value in obj]
    if isinstance(obj, StandIn):
        return _plain_stand_in(obj, depth)
    return _described(obj)


def _described(obj: Any) -> str:
    if isinstance(obj, bytes | bytearray):
        return f"<{len(obj)} bytes>"
    if isinstance(obj, dt.date | dt.time | dt.timedelta):
        return str(obj)
    return f"<{type(obj).__name__}>"


def _plain_stand_in(obj: StandIn, depth: int) -> Any:
    if obj.qualname.endswith(("numpy.ndarray", "multiarray._reconstruct")):
        return _array(obj)
    if obj.qualname.endswith("numeric._frombuffer") and len(obj.args) >= 3:
        buffer, dtype, shape = obj.args[:3]
        return _numbers(bytes(buffer) if isinstance(buffer, bytes | bytearray) else None, dtype, shape)
    if obj.qualname.endswith("numpy.dtype"):
        return f"<numpy dtype {_dtype_name(obj)}>"
    out: dict[str, Any] = {"__class__": obj.qualname}
    for key, value in obj.attributes.items():
        out[str(key)] = plain(value, depth + 1)
    for key, value in obj.entries.items():
        out[str(key)] = plain(value, depth + 1)
    if obj.items:
        out["__items__"] = plain(obj.items, depth + 1)
    if obj.args and not obj.attributes and not obj.entries:
        out["__args__"] = plain(obj.args, depth + 1)
    return out


def _array(obj: StandIn) -> Any:
    """A NumPy array's numbers (state: version, shape, dtype, fortran order, raw bytes), flat."""
    state = obj.state
    if not (isinstance(state, tuple) and len(state) == 5):
        return "<numpy array>"
    _, shape, dtype, _, raw = state
    return _numbers(raw if isinstance(raw, bytes) else None, dtype, shape)


def _numbers(raw: bytes | None, dtype: Any, shape: Any) -> Any:
    fmt = _struct_format(dtype)
    shape_text = "x".join(str(n) for n in shape) if isinstance(shape, tuple) else "?"
    if fmt is None or raw is None:
        return f"<numpy array {shape_text} {_dtype_name(dtype)}>"
    size = struct.calcsize(fmt)
    count = len(raw) // size
    if count > _MAX_ARRAY or count * size != len(raw):
        return f"<numpy array {shape_text} {_dtype_name(dtype)}>"
    return list(struct.unpack(fmt[0] + fmt[1] * count, raw))
