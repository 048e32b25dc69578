"""The restricted unpickler: any class read as data, nothing it names imported or called."""

from __future__ import annotations

import builtins
import gzip
import os
import pickle
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from webeval_core.reading.safepickle import (
    PickleRefusedError,
    StandIn,
    field,
    load_gzip_pickle,
    load_pickle,
    plain,
)


class _Reduces:
    """Pickles as a call of `call` with `args` (what a hostile pickle is)."""

    def __init__(self, call: Any, *args: Any) -> None:
        self.call = call
        self.args = args

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return self.call, self.args


def _hostile(marker: Path, protocol: int) -> list[tuple[str, bytes]]:
    """Pickles that would create `marker` (or run code) if executed."""
    command = f"touch {marker}"
    calls: list[tuple[str, Any]] = [
        ("os.system", _Reduces(os.system, command)),
        ("builtins.eval", _Reduces(builtins.eval, f"open({str(marker)!r}, 'w')")),
        ("builtins.exec", _Reduces(builtins.exec, f"open({str(marker)!r}, 'w')")),
        ("subprocess.Popen", _Reduces(subprocess.Popen, ["touch", str(marker)])),
        ("builtins.open", _Reduces(builtins.open, str(marker), "w")),
        ("builtins.__import__", _Reduces(builtins.__import__, "os")),
        ("getattr chain", _Reduces(getattr, _Reduces(builtins.__import__, "os"), "system")),
        # the hostile call hidden inside ordinary data
        ("nested in a dict", {"obs": {"url": "x", "payload": _Reduces(os.system, command)}}),
    ]
    # protocol 0 names the callable as text (GLOBAL), the oldest form of the attack
    text = ("os.system as text", f"cos\nsystem\n(V{command}\ntR.".encode())
    return [(label, pickle.dumps(call, protocol=protocol)) for label, call in calls] + [text]


@pytest.mark.parametrize("protocol", [0, 2, 4, 5])
def test_a_hostile_pickle_never_runs_and_is_refused(tmp_path: Path, protocol: int) -> None:
    marker = tmp_path / "pwned"
    for label, data in _hostile(marker, protocol):
        with pytest.raises(PickleRefusedError, match="can run code"):
            load_pickle(data)
        assert not marker.exists(), label


def test_a_hostile_gzip_pickle_is_refused_and_names_the_call(tmp_path: Path) -> None:
    marker = tmp_path / "pwned"
    data = gzip.compress(pickle.dumps(_Reduces(os.system, f"touch {marker}")))
    with pytest.raises(PickleRefusedError, match=r"(posix|os|nt)\.system"):
        load_gzip_pickle(data)
    assert not marker.exists()


def test_an_unknown_module_is_never_imported() -> None:
    # A class of a module that does not exist here, called with {"step": 3} (protocol 0 opcodes):
    # a stand-in, and no import is tried.
    obj = load_pickle(b"cagent_of_someone_else\nAgent\n(}(Vstep\nI3\nutR.")
    assert isinstance(obj, StandIn)
    assert obj.qualname == "agent_of_someone_else.Agent"
    assert obj.args == ({"step": 3},)
    assert "agent_of_someone_else" not in sys.modules


@dataclass
class _Step:
    step: int
    obs: dict[str, Any]
    reward: Any


class _Message(dict):  # type: ignore[type-arg]
    pass


@pytest.mark.parametrize("protocol", range(pickle.HIGHEST_PROTOCOL + 1))
def test_a_dataclass_with_numpy_reads_as_plain_data(protocol: int) -> None:
    message = _Message(role="user", content="hi")
    step = _Step(
        step=2,
        obs={
            "url": "http://x",
            "elapsed": np.asarray([1.5]),
            "index": np.asarray([0]),
            "messages": (message,),
        },
        reward=np.float64(0.5),
    )
    read = load_pickle(pickle.dumps(step, protocol=protocol))
    assert isinstance(read, StandIn)
    assert read.qualname.endswith("_Step")
    assert field(read, "step") == 2
    assert plain(read) == {
        "__class__": f"{__name__}._Step",
        "step": 2,
        "obs": {
            "url": "http://x",
            "elapsed": [1.5],
            "index": [0],
            "messages": [{"__class__": f"{__name__}._Message", "role": "user", "content": "hi"}],
        },
        "reward": 0.5,
    }


def test_large_arrays_and_bytes_are_described_not_decoded() -> None:
    read = plain(load_pickle(pickle.dumps({"image": np.zeros((40, 64, 3), np.uint8), "raw": b"abc"})))
    assert read == {"image": "<numpy array 40x64x3 u1>", "raw": "<3 bytes>"}


def test_broken_and_bombed_pickles_are_errors_not_crashes() -> None:
    with pytest.raises(pickle.UnpicklingError):
        load_pickle(pickle.dumps({"a": 1})[:-3])
    with pytest.raises(pickle.UnpicklingError, match="gzip"):
        load_gzip_pickle(b"not gzip at all")
    with pytest.raises(pickle.UnpicklingError, match="more than"):
        load_gzip_pickle(gzip.compress(pickle.dumps(b"x" * 3_000_000)), limit=1_000_000)
    with pytest.raises(pickle.UnpicklingError, match="persistent"):
        load_pickle(b"\x80\x02P0\n.")  # a persistent id: an object stored elsewhere
