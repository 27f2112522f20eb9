"""IPython and Jupyter: `%load_ext gradscope`, then

    %%gradscope [--check-nan] [--keep-backwards N] [--max-nodes N] [--grad-flow] [--no-graph]
    <the cell's code>                        records this cell

    %gradscope on [options]                  records every following cell, each on its own
    %gradscope off

A recorded cell runs as IPython runs it: its own traceback when it fails, its result shown, and
a failed cell still stops "Run All". After it, the explanation is shown: rich panels in a
terminal, HTML panels with the graph (the problem highlighted) in Jupyter. Locations name cells
as IPython does ("In [5], line 3"), and lines of the `.py` modules the notebook imports.

How: a `%%gradscope` first line is rewritten, before IPython reads the cell, into a call that
starts the recording (one line for one line, so the cell's line numbers stay as the user sees
them); IPython's `post_run_cell` event stops it, on every way the cell ends. IPython is imported
only by `load_ipython_extension`.
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys

from .api import Recording
from .errors import RecordingError
from .settings import Settings
from .trace.locations import add_cell_file_prefix, label_file

MAGIC = "gradscope"
_CELL_LINE = "%%" + MAGIC


class UsageError(ValueError):
    """A bad option line: one message, shown instead of running the cell."""


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # no usage dump and no SystemExit inside the kernel
        raise UsageError(message)


def _parser() -> _Parser:
    parser = _Parser(prog=_CELL_LINE, add_help=False)
    parser.add_argument("--check-nan", action="store_true")
    parser.add_argument("--keep-backwards", type=int, default=Settings.keep_backwards)
    parser.add_argument("--max-nodes", type=int, default=Settings.max_nodes)
    parser.add_argument("--grad-flow", action="store_true")
    parser.add_argument("--no-graph", action="store_true", help="no inline graph under the findings")
    return parser


def parse_options(line: str) -> tuple[Settings, bool]:
    """The settings of a `%%gradscope` / `%gradscope on` option line, and whether to draw the graph."""
    try:
        options = _parser().parse_args(shlex.split(line))
    except ValueError as exc:  # shlex: no closing quotation
        raise UsageError(str(exc)) from None
    if options.keep_backwards < 1 or options.max_nodes < 100:
        raise UsageError("--keep-backwards must be at least 1 and --max-nodes at least 100")
    settings = Settings(keep_backwards=options.keep_backwards, max_nodes=options.max_nodes,
                        check_nan=options.check_nan, grad_flow=() if options.grad_flow else None)
    return settings, not options.no_graph


def rewrite_cell_magic(lines: list[str]) -> list[str]:
    """IPython input transformer: `%%gradscope OPTIONS` on a cell's first line becomes a call
    that starts the recording; the rest of the cell is left as it is (and keeps its numbers)."""
    if lines and lines[0].startswith(_CELL_LINE) and lines[0][len(_CELL_LINE):len(_CELL_LINE) + 1] in (" ", "\n", ""):
        options = lines[0][len(_CELL_LINE):].strip()
        call = f"get_ipython().run_line_magic({MAGIC!r}, {('cell ' + options).strip()!r})\n"
        return [call, *lines[1:]]
    return lines


class CellRecorder:
    """The extension's state in one IPython shell.

    `%%gradscope` records its cell alone. `%gradscope on` records one run across the following
    cells (a model built in one cell and trained in the next is one program): the recorder runs
    while a cell runs and is halted between cells; after each cell, the run so far is diagnosed
    and what is new is shown."""

    def __init__(self, shell):
        self.shell = shell
        self.every_cell: tuple[Settings, bool] | None = None  # `%gradscope on`: its settings
        self.session: Recording | None = None  # the run `%gradscope on` records
        self.cell: Recording | None = None  # the recording of this `%%gradscope` cell
        self.session_cell = False  # the session records the running cell
        self.show_graph = True
        self.shown: set = set()  # findings of the session already shown
        self.last: Recording | None = None
        self._saved_handler = None  # IPython's exception handler while ours is installed

    # ------------------------------------------------------------------ the magic
    def magic(self, line: str, cell: str | None = None):
        """`%gradscope on|off [options]`; `%%gradscope [options]` (rewritten to `cell`)."""
        words = line.split(None, 1)
        command, rest = (words[0], words[1] if len(words) > 1 else "") if words else ("", "")
        from IPython.core.error import UsageError as IPythonUsageError

        try:
            if cell is not None:  # reached only where the input transformer did not run
                self._start_cell(*parse_options(line))
                self.shell.run_cell("\n" + cell)  # (a blank first line: the numbering stays the cell's)
            elif command == "cell":
                self._start_cell(*parse_options(rest))
            elif command == "on":
                self.every_cell = parse_options(rest)
                print("gradscope: recording from the next cell on (%gradscope off to stop)")
            elif command == "off":
                self.every_cell, self.session = None, None
                self.shown.clear()
            else:
                raise UsageError(f"unknown command {command!r}: use %%gradscope [options] on a cell, "
                                 "or %gradscope on [options] / %gradscope off")
        except UsageError as exc:
            # IPython's way: one line, "UsageError: gradscope: ...", and the cell does not run.
            raise IPythonUsageError(f"gradscope: {exc}") from None
        except RecordingError as exc:  # another recording runs (it records this cell already)
            print(f"gradscope: {exc}", file=sys.stderr)
        return None

    def _start_cell(self, settings: Settings, show_graph: bool) -> None:
        if self.session_cell:  # `%gradscope on` records this cell: these options win for it
            self.session.halt()
            self.session_cell = False
        recording = Recording(settings, [f"In [{self.shell.execution_count}]"])
        recording.start()
        self.cell, self.show_graph = recording, show_graph
        self._clean_tracebacks()

    # ------------------------------------------------------------------ IPython's events
    def pre_run_cell(self, info=None) -> None:
        if self.every_cell is None:
            return
        raw = (getattr(info, "raw_cell", "") or "").lstrip()
        if raw.startswith(_CELL_LINE) or raw.startswith("%" + MAGIC + " off"):
            return  # a cell recorded on its own, or the end of the session
        try:
            if self.session is None:
                self.session = Recording(self.every_cell[0], ["%gradscope on"])
                self.session.start()
            else:
                self.session.resume()
        except RecordingError as exc:
            print(f"gradscope: {exc}", file=sys.stderr)
            return
        self.session_cell = True
        self._clean_tracebacks()

    def post_run_cell(self, result=None) -> None:
        self._restore_tracebacks()
        error = getattr(result, "error_in_exec", None) if result is not None else None
        try:
            if self.cell is not None:
                recording, self.cell = self.cell, None
                recording.halt()
                label_cells(self.shell)
                recording.diagnose(error, 0 if error is None else 1)
                self._show(recording, recording.findings, always=True, show_graph=self.show_graph)
            elif self.session_cell:
                self.session_cell = False
                self.session.halt()
                label_cells(self.shell)
                self.session.diagnose(error, 0 if error is None else 1, final=False)
                new = [f for f in self.session.findings if _key(f) not in self.shown]
                self.shown.update(_key(f) for f in new)
                self._show(self.session, new, always=False, show_graph=self.every_cell[1])
        except Exception as exc:  # never let gradscope's failure look like the cell's
            print(f"gradscope: internal error while reporting: {type(exc).__name__}: {exc}", file=sys.stderr)

    def _show(self, recording: Recording, findings: list, always: bool, show_graph: bool) -> None:
        self.last = recording
        errors = recording.trace.internal_errors if always else []
        if findings or errors or always:
            from IPython.display import display

            display(CellReport(recording, findings, errors, show_graph))

    # ------------------------------------------------------------------ tracebacks
    def _clean_tracebacks(self) -> None:
        """While a cell is recorded, IPython shows its tracebacks without gradscope's frames (and
        the torch frames that exist only because gradscope is there), as without gradscope. Not
        where the user installed a custom exception handler of their own."""
        shell = self.shell
        if shell.custom_exceptions or self._saved_handler is not None:
            return
        self._saved_handler = (shell.custom_exceptions, shell.CustomTB)
        shell.set_custom_exc((BaseException,), _show_without_gradscope)

    def _restore_tracebacks(self) -> None:
        if self._saved_handler is not None:
            self.shell.custom_exceptions, self.shell.CustomTB = self._saved_handler
            self._saved_handler = None


def _key(finding) -> tuple:
    return (finding.rule, tuple((loc.path, loc.line, loc.role) for loc in finding.locations))


def _show_without_gradscope(shell, etype, value, tb, tb_offset=None):
    """IPython's custom exception handler: its own traceback display, gradscope's frames out."""
    from .runtime.runner import clean_exception

    clean_exception(value)
    shell.showtraceback((etype, value, value.__traceback__), tb_offset=tb_offset, running_compiled_code=True)
    return None


_labelled: set[str] = set()


def label_cells(shell) -> None:
    """Name the code IPython compiled for each cell "In [n]" (its execution count)."""
    for filename, number in list(getattr(shell.compile, "_filename_map", {}).items()):
        if filename not in _labelled:
            _labelled.add(filename)
            label_file(filename, f"In [{number}]")


class CellReport:
    """What a recorded cell shows: panels as text in a terminal; in Jupyter, the panels as HTML
    and the graph as inline SVG with the problem highlighted."""

    def __init__(self, recording: Recording, findings: list, internal_errors: list[str], show_graph: bool = True):
        self.recording = recording
        self.findings = findings
        self.internal_errors = internal_errors
        self.show_graph = show_graph

    def _nothing(self) -> bool:
        return not self.findings and not self.internal_errors

    def text(self, width: int = 100) -> str:
        import io

        from rich.console import Console

        from .render import console as panels

        if self._nothing():
            return "gradscope: no autograd problems found in this cell"
        stream = io.StringIO()
        # Colours where IPython writes to a terminal; plain text as a kernel's text/plain.
        terminal = Console(file=stream, width=width, force_jupyter=False, highlight=False,
                           force_terminal=_stdout_is_terminal())
        panels.render_to(terminal, self.findings, self.internal_errors)
        return stream.getvalue().strip("\n")

    def _repr_pretty_(self, printer, cycle) -> None:
        printer.text(self.text())

    def _repr_html_(self) -> str:
        from rich.console import Console

        from .render import console as panels

        if self._nothing():
            return "<p><code>gradscope</code>: no autograd problems found in this cell</p>"
        terminal = Console(record=True, width=100, file=_Discard(), force_terminal=True, force_jupyter=False)
        panels.render_to(terminal, self.findings, self.internal_errors)
        html = terminal.export_html(inline_styles=True, code_format=_PRE)
        svg = self._graph_svg() if self.show_graph and self.findings else None
        return html + (f"<div class='gradscope-graph'>{svg}</div>" if svg else "")

    def _graph_svg(self) -> str | None:
        try:
            return self.recording.graph(focus=True).svg
        except Exception:  # no graph for these findings, or no renderer here: the panels say it all
            return None


def _stdout_is_terminal() -> bool:
    try:
        return sys.stdout.isatty()
    except Exception:
        return False


_PRE = "<pre style=\"font-family:Menlo,'DejaVu Sans Mono',consolas,'Courier New',monospace;font-size:12px\">{code}</pre>"


class _Discard:
    def write(self, text):
        return len(text)

    def flush(self):
        pass


def load(shell) -> CellRecorder:
    """Register the magic, the input transformer and the cell events (once per shell)."""
    state = getattr(shell, "_gradscope", None)
    if state is not None:
        return state
    state = CellRecorder(shell)
    shell._gradscope = state
    try:  # ipykernel compiles cells as /tmp/ipykernel_<pid>/<hash>.py: know them as cells
        folder = os.path.dirname(shell.compile.get_code_name("", "", 0))
        if os.path.isabs(folder):
            add_cell_file_prefix(folder + os.sep)
    except Exception:
        pass
    shell.register_magic_function(state.magic, magic_kind="line_cell", magic_name=MAGIC)
    shell.input_transformers_cleanup.insert(0, rewrite_cell_magic)
    shell.events.register("pre_run_cell", state.pre_run_cell)
    shell.events.register("post_run_cell", state.post_run_cell)
    return state


def unload(shell) -> None:
    state = getattr(shell, "_gradscope", None)
    if state is None:
        return
    for recording in (state.cell, state.session):
        if recording is not None:
            recording.halt()
    if rewrite_cell_magic in shell.input_transformers_cleanup:
        shell.input_transformers_cleanup.remove(rewrite_cell_magic)
    shell.events.unregister("pre_run_cell", state.pre_run_cell)
    shell.events.unregister("post_run_cell", state.post_run_cell)
    del shell._gradscope
