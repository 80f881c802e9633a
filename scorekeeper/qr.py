"""QR codes drawn on the server as inline SVG (segno), for phones to scan a link."""

from __future__ import annotations

import io

import segno
from markupsafe import Markup


def qr_svg(data: str, title: str) -> Markup:
    """``data`` as an inline SVG QR code, black on white (scanned in dark mode too), no style."""
    code = segno.make(data, error="m", micro=False)
    buffer = io.BytesIO()
    code.save(
        buffer,
        kind="svg",
        xmldecl=False,
        svgns=True,
        omitsize=True,
        border=4,
        dark="#000",
        light="#fff",
        svgclass="qr",
        lineclass=None,
        title=title,
        nl=False,
    )
    svg = buffer.getvalue().decode("utf-8")
    # segno escapes the title; the SVG is its own output, so it is safe to embed as it is.
    return Markup(svg.replace("<svg ", '<svg role="img" ', 1))
