"""What the recorder keeps, at the bottom of the package: record layouts, bounds and counters.

A node record is a plain tuple of atoms: exact tuples are the only containers Python's cyclic GC
stops tracking (a NamedTuple stays tracked), and a training step makes tens of thousands of them.
The constants below name their fields; code reads `record[SAVED]`, never `record[10]`.
"""

from __future__ import annotations

import itertools

from ..trace.model import GRAD_CHECK_STEPS  # noqa: F401  (the ledger's window; analyses read it too)

# Fields of a node record.
NID = 0  # the node's sequence number
NAME = 1  # its class, e.g. "MulBackward0"
OP = 2  # the torch call that made it
LOC = 3  # raw user location (code, offset)
SEQ = 4  # position in the shared event order
BACKWARDS_BEFORE = 5  # backward calls made before it was created
LATE = 6  # made by code we did not see; LOC is where it was first seen
MODULE = 7  # id of the innermost module call it was made in
NEXT_IDS = 8  # sequence numbers of its inputs' nodes
LEAF_IDS = 9  # leaves it accumulates into
SAVED = 10  # saved tensors, as saved-tensor tuples (below)
HOOKED = 11  # its saved tensors were packed by saved_tensors_hooks: never read (see graph.py)

# Fields of a saved-tensor tuple (inside record[SAVED]).
ATTR = 0  # "_saved_self", "saved_tensors[0]", "(inside CopySlices)"
SHAPE = 1
DTYPE = 2  # a torch.dtype
DEVICE = 3  # a torch.device
VERSION = 4  # its _version when saved
STORAGE = 5  # its storage address (see reads.storage_key)
PRODUCER_NODE = 6  # the nid of the node that made it, if any
PRODUCER_LEAF = 7  # its leaf id, if it is a leaf

HIDDEN_IN_COPYSLICES = "(inside CopySlices)"  # ATTR of a view saved where Python cannot look

# Bounds on what is kept beyond the live graph (a long training loop must stay flat).
MAX_INPLACE_CHANGES = 4_096
MAX_BACKWARD_CALLS = 256
MAX_OP_FAILURES = 200
MAX_INTERNAL_ERRORS = 20
MAX_PINNED_GRAPHS = 10  # graphs of failing backward calls kept whole, for `gradscope graph`
MAX_EVENTS = 256  # graph cuts, escapes, .grad reads, hooks, stale links (deduplicated by line)
MAX_LINKERS = 4_096  # nodes that linked into freed graphs, watched for being carried further

# Settings the CLI, the session and the pytest plugin all start from.
DEFAULT_KEEP_BACKWARDS = 4
DEFAULT_MAX_NODES = 100_000


class Clock:
    """Counters every part shares: one order of events (`seq`, so "changed after it was saved" is
    a comparison), the backward calls made so far, the gradient-zeroing calls and the optimizer
    steps seen."""

    __slots__ = ("seq", "backwards", "zeroings", "steps", "freezes")

    def __init__(self):
        self.seq = itertools.count()
        self.backwards = 0
        self.zeroings = 0
        self.steps = 0  # optimizer steps begun, of every optimizer
        self.freezes = 0  # parameters frozen (requires_grad set to False) so far
