"""Make docs/images/notebook_session.svg, the README's picture of a notebook session, from a real
run: samples/notebooks/inplace_version.ipynb is executed in a Jupyter kernel (nbclient, the
`notebook` extra), and its cells, the failing cell's error and gradscope's output (the panel and
the inline graph the kernel returned) are drawn one under the other, as a notebook shows them.

    .venv/bin/python docs/notebook_image.py
"""

from __future__ import annotations

import re
from pathlib import Path

import nbclient
import nbformat
from rich.console import Console
from rich.syntax import Syntax
from rich.text import Text

ROOT = Path(__file__).resolve().parent.parent
BOOK = ROOT / "samples" / "notebooks" / "inplace_version.ipynb"
OUT = ROOT / "docs" / "images" / "notebook_session.svg"
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def main() -> None:
    book = nbformat.read(str(BOOK), as_version=4)
    nbclient.NotebookClient(book, timeout=240, kernel_name="python3", allow_errors=True,
                            resources={"metadata": {"path": str(BOOK.parent)}}).execute()
    console = Console(record=True, width=100, file=open("/dev/null", "w"), force_terminal=True)
    graph = None
    for cell in book.cells:
        if cell.cell_type != "code":
            continue
        console.print(Text(f"In [{cell.execution_count}]:", style="bold blue"))
        console.print(Syntax(cell.source, "python", theme="default", background_color="default"))
        for out in cell.outputs:
            if out.output_type == "stream":
                console.print(Text(out.text.rstrip()))
            elif out.output_type == "error":
                console.print(Text(f"{out.ename}: {out.evalue[:90]}...", style="bold red"))
            elif out.output_type == "display_data" and "text/plain" in out.data:
                console.print(Text(out.data["text/plain"]), style="default")
                html = out.data.get("text/html", "")
                if "<svg" in html:
                    graph = html[html.index("<svg"):html.rindex("</svg>") + len("</svg>")]
        console.print()
    panels = console.export_svg(title=f"{BOOK.name} in Jupyter (gradscope)")
    OUT.write_text(_stack(panels, graph))
    print(f"wrote {OUT.relative_to(ROOT)}")


def _size(svg: str) -> tuple[float, float]:
    box = re.search(r'viewBox="([\d.\s-]+)"', svg)
    if box:
        _, _, width, height = (float(v) for v in box.group(1).split())
        return width, height
    width = re.search(r'width="([\d.]+)(pt|px)?"', svg)
    height = re.search(r'height="([\d.]+)(pt|px)?"', svg)
    return float(width.group(1)), float(height.group(1))


def _stack(top: str, bottom: str | None) -> str:
    """One SVG with `top` above `bottom` (both whole SVG documents)."""
    top = top[top.index("<svg"):]
    if bottom is None:
        return top
    (w1, h1), (w2, h2) = _size(top), _size(bottom)
    scale = min(1.0, w1 / w2)
    width, height = w1, h1 + h2 * scale + 20
    place = lambda svg, y, w, h: re.sub(r"<svg\b", f'<svg x="0" y="{y}" width="{w}" height="{h}"', svg, count=1)
    body = place(re.sub(r'\s(width|height)="[^"]*"', "", top, count=2), 0, w1, h1) + \
        place(re.sub(r'\s(width|height)="[^"]*"', "", bottom, count=2), h1 + 10, w2 * scale, h2 * scale)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}">'
            f'<rect width="100%" height="100%" fill="white"/>{body}</svg>\n')


if __name__ == "__main__":
    main()
