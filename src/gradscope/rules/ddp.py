"""DistributedDataParallel patterns that raise only on some devices: two forwards of a DDP module
that broadcasts its buffers, before one backward (a GAN discriminator run on the real and on the
fake batch). Pure: reads the trace's record of DDP forwards."""

from __future__ import annotations

from ..trace.findings import Finding, Location
from ..trace.locations import Site
from ..trace.model import Trace
from ..trace.source_search import enclosing_block
from ._words import where

BUFFERS_RULE_ID = "ddp-buffers-changed-between-forwards"


def traced_paths(path: str) -> set[str]:
    """A module or parameter path as DDP names it (`aux_head.weight`, from the wrapped model) and
    as the trace names it (`module.aux_head.weight`, from the DDP wrapper, the root)."""
    return {path, f"module.{path}"}


DDP_BUFFERS_FIX = ("Run the module once on both batches (`netD(torch.cat([real, fake]))`, then split the output), "
                   "or backward after each forward, or construct DDP with `broadcast_buffers=False` (or use "
                   "SyncBatchNorm).")


def buffers_between_forwards(trace: Trace) -> list[Finding]:
    """At each forward in training, DDP (broadcast_buffers=True) copies rank 0's buffers (BatchNorm
    running statistics) into every rank's model in place. A second forward before the backward of
    the first changes buffers the first forward's BatchNorm saved: on CUDA (cuDNN) that backward
    fails with the version-counter error (pytorch/pytorch#22095); on CPU it happens not to."""
    findings, seen = [], set()
    for first, second in _broadcasting_pairs(trace):
        backward = next((c for c in trace.backward_calls if c.index >= first.backwards_before), None)
        if backward is None or (first.site, second.site) in seen:
            continue
        if buffer_written_by_ddp(trace, backward) is not None:
            continue  # it failed: inplace_saved explains the error, naming these forwards
        seen.add((first.site, second.site))
        findings.append(Finding.naming(
            BUFFERS_RULE_ID, "warning", "DDP changes the buffers between two forwards before one backward",
            f"The DDP module is called at {where(first.site)} and again at {where(second.site)} before the "
            f"backward at {where(backward.site)}. With broadcast_buffers=True (the default), DDP copies rank 0's "
            "buffers (BatchNorm's running_mean/running_var) into the model in place at the start of each forward, "
            "so the second call changes buffers that the first call's BatchNorm saved for its backward. On CUDA "
            "this backward fails (\"one of the variables needed for gradient computation has been modified by an "
            "inplace operation\", the running statistics)" + ("; this run did not fail." if backward.error is None
                                                              else "."),
            DDP_BUFFERS_FIX,
            [Location.at(first.site, "forward", "first forward: its graph keeps the buffers"),
             Location.at(second.site, "again", "second forward: DDP rewrites the buffers"),
             Location.at(backward.site, "backward", "backward of both")]))
    return findings


def _broadcasting_pairs(trace: Trace):
    """Two DDP forwards in a row that both broadcast buffers with no backward between them."""
    forwards = trace.ddp_forwards
    for first, second in zip(forwards, forwards[1:]):
        if first.broadcasts_buffers and second.broadcasts_buffers and \
                first.backwards_before == second.backwards_before:  # else the first graph is done
            yield first, second


def buffer_written_by_ddp(trace: Trace, call) -> tuple | None:
    """(first forward, second forward) when `call` failed on a BatchNorm running statistic that
    no recorded op changed, after two broadcasting DDP forwards: DDP's buffer broadcast (C++,
    unseen) rewrote it. The CUDA form of pytorch/pytorch#22095."""
    failure = call.version_failure
    if failure is None or not any(name in failure.attr for name in ("running_mean", "running_var")):
        return None
    pair = next(((a, b) for a, b in _broadcasting_pairs(trace) if a.backwards_before == call.index), None)
    return pair


NO_SYNC_RULE_ID = "ddp-step-without-sync"


def step_without_sync(trace: Trace) -> list[Finding]:
    """An optimizer's first step applies gradients of backward calls that all ran under DDP's
    `no_sync()`: the gradients were never all-reduced, so each rank steps with its own and the
    replicas drift apart. (Accumulation means no_sync for all micro-batches but the last.)"""
    findings = []
    for step in trace.first_steps:
        before = [c for c in trace.backward_calls if c.seq < step.seq and c.ddp_synced is not None]
        if before and not any(c.ddp_synced for c in before):
            last = before[-1]
            findings.append(Finding.naming(
                NO_SYNC_RULE_ID, "warning", "DDP: an optimizer step with gradients that were never synchronized",
                f"{step.optimizer}.step() at {where(step.site)} applies the gradients of {len(before)} backward "
                f"call(s) (the last at {where(last.site)}), all made inside `no_sync()`: DDP all-reduces "
                "gradients only in a backward made outside it, so each rank steps with its own gradients and "
                "the model replicas drift apart.",
                "Accumulate with `no_sync()` around every micro-batch but the last one before the step, e.g. "
                "`ctx = model.no_sync() if (i + 1) % accum_steps else contextlib.nullcontext()`.",
                [Location.at(_no_sync_block(last.site), "context", "no_sync() around the last backward too"),
                 Location.at(last.site, "backward", "inside no_sync()"),
                 Location.at(step.site, "step", "steps with unsynchronized gradients")]))
            break
    return findings


def _no_sync_block(site):
    """The `with model.no_sync():` line around a backward (or around the call that led to it)."""
    if site is None:
        return None
    for frame in (site, *reversed(site.callers)):
        line = enclosing_block(frame.path, frame.line, ("no_sync",))
        if line is not None:
            return Site(frame.path, line)
    return None
