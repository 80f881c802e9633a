"""The address ``make run`` prints for the other phones, and its QR code (no network needed)."""

from __future__ import annotations

import io
from collections.abc import Callable

import pytest
from flask.testing import FlaskCliRunner

from scorekeeper import address


def no_network() -> str | None:
    return None


def lan() -> str | None:
    return "192.168.1.23"


@pytest.mark.parametrize(
    ("host", "find_ip", "expected"),
    [
        ("0.0.0.0", lan, "http://192.168.1.23:5000/"),
        ("", lan, "http://192.168.1.23:5000/"),
        ("::", lan, "http://192.168.1.23:5000/"),
        ("127.0.0.1", lan, "http://localhost:5000/"),
        ("localhost", lan, "http://localhost:5000/"),
        ("10.0.0.7", lan, "http://10.0.0.7:5000/"),
        ("fd00::7", lan, "http://[fd00::7]:5000/"),
    ],
)
def test_the_address_is_the_one_other_phones_can_reach(
    host: str, find_ip: Callable[[], str | None], expected: str
) -> None:
    assert address.table_address(host, 5000, find_ip) == expected


def test_without_a_network_address_the_host_name_is_given(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(address.socket, "gethostname", lambda: "kitchen-laptop")
    assert address.table_address("0.0.0.0", 8000, no_network) == "http://kitchen-laptop:8000/"


def test_the_network_address_skips_the_loopback(monkeypatch: pytest.MonkeyPatch) -> None:
    class Probe:
        def __init__(self, *args: object) -> None:
            pass

        def __enter__(self) -> Probe:
            return self

        def __exit__(self, *args: object) -> None:
            pass

        def connect(self, target: tuple[str, int]) -> None:
            assert target == address.PROBE

        def getsockname(self) -> tuple[str, int]:
            return ("127.0.1.1", 40000)

    monkeypatch.setattr(address.socket, "socket", Probe)
    monkeypatch.setattr(address.socket, "gethostbyname", lambda name: "192.168.0.5")
    assert address.lan_ip() == "192.168.0.5"
    monkeypatch.setattr(address.socket, "gethostbyname", lambda name: "127.0.1.1")
    assert address.lan_ip() is None


def _qr_rows(printed: str) -> list[str]:
    return [line for line in printed.splitlines() if line and set(line) <= set("█▀▄ ")]


def test_a_shared_address_is_printed_with_its_qr_code() -> None:
    out = io.StringIO()
    address.print_address("http://192.168.1.23:5000/", out, local=False)
    printed = out.getvalue()
    assert "http://192.168.1.23:5000/" in printed
    rows = _qr_rows(printed)
    # A version-2 code is 25 modules plus a 4-module border, two rows to a line.
    assert len(rows) >= 10
    assert len({len(row) for row in rows}) == 1, "a square of equal lines"


def test_the_qr_code_holds_the_address() -> None:
    segno = pytest.importorskip("segno")
    out = io.StringIO()
    address.print_address("http://192.168.1.23:5000/", out, local=False)
    expected = io.StringIO()
    segno.make("http://192.168.1.23:5000/", micro=False).terminal(out=expected, compact=True)
    assert expected.getvalue() in out.getvalue()
    other = io.StringIO()
    segno.make("http://192.168.1.24:5000/", micro=False).terminal(out=other, compact=True)
    assert other.getvalue() not in out.getvalue()


def test_a_local_address_has_no_qr_code() -> None:
    out = io.StringIO()
    address.print_address("http://localhost:5000/", out, local=True)
    assert "http://localhost:5000/" in out.getvalue()
    assert _qr_rows(out.getvalue()) == []


def test_flask_address_prints_the_address(
    runner: FlaskCliRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(address, "lan_ip", lan)
    result = runner.invoke(args=["address", "--host", "0.0.0.0", "--port", "8123"])
    assert result.exit_code == 0, result.output
    assert "http://192.168.1.23:8123/" in result.output
    assert _qr_rows(result.output)
    local = runner.invoke(args=["address", "--host", "127.0.0.1", "--port", "8123"])
    assert "http://localhost:8123/" in local.output
