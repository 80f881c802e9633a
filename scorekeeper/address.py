"""``flask address``: the address other phones at the table open, with a QR code (``make run``
prints it; it knows nothing of the web app and starts no server)."""

from __future__ import annotations

import ipaddress
import socket
import sys
from collections.abc import Callable
from typing import TextIO

import click
import segno

# No packet is sent to it: "connecting" a UDP socket only asks the system which of its
# addresses would be used to reach the local network.
PROBE = ("10.255.255.255", 1)
EVERY_INTERFACE = {"0.0.0.0", "::", ""}
LOOPBACK_NAMES = {"localhost", "127.0.0.1", "::1"}


def lan_ip() -> str | None:
    """This machine's address on its network, if it has one other than the loopback."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(PROBE)
            address = str(probe.getsockname()[0])
    except OSError:
        address = ""
    if _usable(address):
        return address
    try:
        address = socket.gethostbyname(socket.gethostname())
    except OSError:
        return None
    return address if _usable(address) else None


def _usable(address: str) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return not (ip.is_loopback or ip.is_unspecified or ip.is_link_local)


def table_address(host: str, port: int, find_ip: Callable[[], str | None] | None = None) -> str:
    """The address to open: ``localhost`` when the server stays on this machine, the
    machine's network address when it listens on every interface, else the host given."""
    if host in LOOPBACK_NAMES or host.startswith("127."):
        name = "localhost"
    elif host in EVERY_INTERFACE:
        name = (find_ip or lan_ip)() or socket.gethostname() or "localhost"
    else:
        name = host
    if ":" in name:
        name = f"[{name}]"  # an IPv6 address in a URL
    return f"http://{name}:{port}/"


def print_address(url: str, out: TextIO, *, local: bool) -> None:
    """The address, and (when other phones can open it) the same as a QR code."""
    if local:
        out.write(f"Tablet of Truth is at {url}  (this computer only; Ctrl+C stops it)\n")
        return
    out.write(f"Tablet of Truth is at {url}  (Ctrl+C stops it)\n")
    out.write("Phones on the same network open that address, or scan this code:\n")
    out.flush()
    segno.make(url, micro=False).terminal(out=out, compact=True)
    out.flush()


@click.command("address")
@click.option("--host", default="0.0.0.0", show_default=True, help="The address served on.")
@click.option("--port", default=5000, show_default=True, type=int, help="The port served on.")
def address_command(host: str, port: int) -> None:
    """Print the address phones at the table open, with its QR code."""
    url = table_address(host, port)
    print_address(url, sys.stdout, local=url.startswith("http://localhost"))
