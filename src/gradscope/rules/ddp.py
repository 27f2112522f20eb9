"""DistributedDataParallel patterns that raise only on some devices: two forwards of a DDP module
that broadcasts its buffers, before one backward (a GAN discriminator run on the real and on the
fake batch). Pure: reads the trace's record of DDP forwards."""

from __future__ import annotations

from ..findings import Finding, Location
from ..trace import Trace
from ._words import where

BUFFERS_RULE_ID = "ddp-buffers-changed-between-forwards"


def buffers_between_forwards(trace: Trace) -> list[Finding]:
    """At each forward in training, DDP (broadcast_buffers=True) copies rank 0's buffers (BatchNorm
    running statistics) into every rank's model in place. A second forward before the backward of
    the first changes buffers the first forward's BatchNorm saved: on CUDA (cuDNN) that backward
    fails with the version-counter error (pytorch/pytorch#22095); on CPU it happens not to."""
    findings, seen = [], set()
    forwards = trace.ddp_forwards
    for first, second in zip(forwards, forwards[1:]):
        if not (first.broadcasts_buffers and second.broadcasts_buffers):
            continue
        if first.backwards_before != second.backwards_before:
            continue  # a backward ran in between: the first forward's graph is done
        backward = next((c for c in trace.backward_calls if c.index >= first.backwards_before), None)
        if backward is None or (first.site, second.site) in seen:
            continue
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
            "Run the module once on both batches (`netD(torch.cat([real, fake]))`, then split the output), or "
            "backward after each forward, or construct DDP with `broadcast_buffers=False` (or use SyncBatchNorm).",
            [Location.at(first.site, "forward", "first forward: its graph keeps the buffers"),
             Location.at(second.site, "again", "second forward: DDP rewrites the buffers"),
             Location.at(backward.site, "backward", "backward of both")]))
    return findings
