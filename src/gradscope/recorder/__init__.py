"""The recorder: records a running program's autograd activity without changing what it computes.

How it hooks in, and why (costs measured on torch 2.13 CPU, see docs/performance.md):

* One ``TorchFunctionMode`` (mode.py) sees every torch call made from Python: ops, in-place
  dunders, ``Tensor.backward``, ``torch.autograd.backward``/``grad``.
* Each autograd node is known by its ``_sequence_nr()`` (unique per thread, unlike the id of its
  Python wrapper in general) and recorded as a tuple of atoms (graph.py, records.py). Retention
  is bounded: the graphs of the last `keep_backwards` backward calls in full, at most `max_nodes`
  records, plus whatever a failure needs.
* Saved tensors are read from the node's ``_saved_*`` attributes right after the op that made
  it. We do not install ``saved_tensors_hooks``: they switch off torch's own version check.
* When a backward call fails, the graph it was given (still alive, held by the caller's
  tensors) is searched for the node whose saved tensor is stale or already freed, by asking
  torch to unpack each saved tensor again (postmortem.py).

Every hook catches its own failures: an error in gradscope is recorded and reported at the end,
never raised into the user's program. Tensors are never held: only ids, weak references and the
storage address of saved tensors (for matching in-place writes to them).

`as_caller` is the one part that does not import torch (the runtime reads its marks to leave
gradscope's call trampolines out of tracebacks), so the front is loaded on first use.
"""


def __getattr__(name: str):
    if name in ("Recorder", "MAX_BACKWARD_CALLS"):
        from . import recorder, records  # imports torch

        return recorder.Recorder if name == "Recorder" else records.MAX_BACKWARD_CALLS
    raise AttributeError(f"module 'gradscope.recorder' has no attribute {name!r}")


__all__ = ["MAX_BACKWARD_CALLS", "Recorder"]
