"""The trace: everything gradscope learned about one run, as plain data.

The recorder produces it, diagnosis rules read it, renderers print it. Nothing here imports
torch or holds a tensor, so rules can be tested on hand-built traces and a trace can be
written to JSON and read back.

Ordering: every recorded event carries `seq`, one counter shared by node creation, in-place
changes, backward calls and failing ops, so "modified after it was saved" is `a.seq > b.seq`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from .locations import Site


@dataclass
class SavedTensor:
    """A tensor that an autograd node saved for its backward."""

    attr: str  # e.g. "_saved_self", "_saved_result", "saved_tensors[0]"
    shape: tuple[int, ...]
    dtype: str
    device: str
    version: int  # its `_version` when saved
    storage: int | None  # storage address: identifies the memory in-place ops write to
    producer_node: int | None = None  # node id of the op that produced it, if not a leaf
    producer_leaf: int | None = None  # leaf id, if the saved tensor is a leaf
    version_now: int | None = None  # its version when the trace was taken, from the in-place log
    # its version when the backward that first ran its node started (None: never ran). A change
    # after that backward (an optimizer step) broke nothing; only one before it is a hazard.
    version_at_backward: int | None = None


@dataclass
class Node:
    """An autograd node (a `grad_fn`), with the op and user line that created it."""

    id: int
    name: str  # the node's class name, e.g. "MulBackward0"
    op: str  # the torch call that created it, e.g. "mul", "linear", "__setitem__"
    site: Site | None
    seq: int
    backwards_before: int  # number of backward calls made before it was created
    saved: list[SavedTensor] = field(default_factory=list)
    freed_by: int | None = None  # index of the backward call that released its buffers
    ran_by: int | None = None  # index of the first backward call that ran it (also with retain_graph)
    first_seen_late: bool = False  # created by code gradscope did not see; site is where first seen
    next_ids: list[int] = field(default_factory=list)  # inputs' nodes that gradscope tracks
    leaf_ids: list[int] = field(default_factory=list)  # leaves whose gradient it accumulates into
    module_call: int | None = None  # the innermost nn.Module call it was created in
    # Its saved tensors were packed by saved_tensors_hooks (activation checkpointing, offloading):
    # gradscope never unpacks those (that would run the hooks: a checkpoint recomputes), so
    # `saved` is empty and what they were is unknown.
    saved_unknown: bool = False


@dataclass
class ModuleCall:
    """One call of an nn.Module's forward; nested calls point to their parent."""

    id: int
    type: str  # class name, e.g. "Linear"
    name: str | None  # module path from its root module ("encoder.layers.0"), "" for a root
    parent: int | None = None
    site: Site | None = None  # the line that called it, with its callers
    module: int | None = None  # which module object (the same number: the same module, within a run)
    registered_at: Site | None = None  # the statement that put it into its parent (built it), if seen
    training: bool | None = None  # the module's training flag when it was called (None: unknown)


GRAD_CHECK_STEPS = 3  # an optimizer's first steps on which every parameter's .grad is looked at (the ledger)

# Layers that compute differently in train and eval mode (class-name prefixes).
MODE_DEPENDENT = ("BatchNorm", "SyncBatchNorm", "InstanceNorm", "Dropout", "AlphaDropout", "FeatureAlphaDropout",
                  "DropPath", "StochasticDepth")


@dataclass
class ModeSwitch:
    """A whole model (a module called from no other module's forward) ran forward in a train/eval
    mode other than the one it ran in before (the first forward counts as one)."""

    module: str | None  # its path ("" for a root model), if known
    module_type: str
    training: bool | None
    backwards_before: int  # backward calls made before it
    steps_before: int  # optimizer steps begun before it
    seq: int
    site: Site | None  # the forward call, with its callers
    module_id: int | None = None  # which module object (as ModuleCall.module)


@dataclass
class StateLoad:
    """A `load_state_dict` call of the program that copied the module's own tensors onto
    themselves (every tensor given shared its storage with the module's tensor of that name):
    it changed nothing."""

    seq: int
    module_type: str
    backwards_before: int
    steps_before: int  # optimizer steps begun before it
    site: Site | None
    tensors: int  # how many tensors it compared, all the module's own


@dataclass
class ModeSet:
    """A `.train()` or `.eval()` call of the program (the outermost one: the recursion into the
    children is part of it)."""

    seq: int
    module_id: int  # which module object (as ModuleCall.module)
    module: str | None  # its path from its root model ("" for a root), if known
    module_type: str
    training: bool
    backwards_before: int
    site: Site | None
    # earlier `.eval()` calls (indices into Trace.mode_sets) whose module, a submodule of this one,
    # this `.train()` put back into train mode; with whether that module ran forward in between
    undid: list[tuple[int, bool]] = field(default_factory=list)


@dataclass
class Leaf:
    """A tensor that requires grad and has no grad_fn: a parameter or a user-made input."""

    id: int
    name: str | None  # module path for parameters ("encoder.0.weight"), else None
    kind: str  # "parameter" or "tensor"
    shape: tuple[int, ...]
    dtype: str
    site: Site | None  # where it was created (for parameters: where its module was built)
    owner: str | None = None  # e.g. "Linear.weight" when the full module path is unknown
    tied: str | None = None  # its other path, for a parameter two modules of one model share


@dataclass
class InplaceChange:
    """A tensor whose version counter went up during one torch call."""

    seq: int
    op: str
    site: Site | None
    storage: int | None
    shape: tuple[int, ...]
    version_before: int
    version_after: int
    grad_enabled: bool
    leaf: int | None = None  # the changed tensor is this leaf (or a view of it)
    via: str | None = None  # the library code the user line called into, e.g. "torch/optim/sgd.py"
    inplace_kwarg: bool = False  # the call was made with inplace=True (nn.ReLU(inplace=True), ...)
    bypasses_version: bool = False  # written through `.data`: the saved tensor's version did not move
    module_call: int | None = None  # the module call it was made in (inplace=True: the module built so)


@dataclass
class SavedHazard:
    """An in-place change, caught as it happened, to a tensor that a live autograd node had saved
    for a backward that had not run yet. A backward through that node would fail with torch's
    version error; a write through `.data` (`silent`) would instead use the new values."""

    change: InplaceChange
    node: int  # the node that saved the tensor
    attr: str  # which of its saved tensors, e.g. "_saved_result"
    silent: bool = False  # the write bypassed the version counter: backward would not raise


@dataclass
class VersionFailure:
    """Post-mortem of a backward that failed because a saved tensor was modified."""

    node: int | None  # the node whose saved tensor no longer matches (None: saved out of sight)
    attr: str
    expected_version: int
    current_version: int


@dataclass
class FreedFailure:
    """Post-mortem of a backward that reached buffers an earlier backward freed."""

    freed_node: int  # first node reached whose saved tensors are gone
    consumer_node: int | None  # the node of the new graph that leads into it


@dataclass
class ErrorInfo:
    type: str
    message: str


@dataclass
class BackwardCall:
    index: int
    api: str  # "Tensor.backward", "torch.autograd.backward" or "torch.autograd.grad"
    site: Site | None
    seq: int
    retain_graph: bool
    create_graph: bool
    roots: list[int] = field(default_factory=list)  # node ids of the tensors backpropagated
    error: ErrorInfo | None = None
    version_failure: VersionFailure | None = None
    freed_failures: list[FreedFailure] = field(default_factory=list)
    failed_node: int | None = None  # for other errors: the node named in the message, if found
    freed_nodes: int = 0  # how many tracked nodes this call released
    ddp_synced: bool | None = None  # DDP all-reduces the gradients (False under no_sync(); None: no DDP)
    input_leaves: list[int] = field(default_factory=list)  # leaves among its `inputs=` (every call)
    # leaves that were themselves backpropagated (`t.backward()` on a tensor made with
    # requires_grad=True): such a backward only fills their own .grad
    leaf_outputs: list[int] = field(default_factory=list)
    # Filled only when the call fails: what it was given.
    outputs: list[TensorArg] = field(default_factory=list)  # the tensors backpropagated
    inputs: list[TensorArg] = field(default_factory=list)  # autograd.grad's `inputs`
    trainable_params: int | None = None  # parameters of the live modules that require grad
    total_params: int | None = None


@dataclass
class TensorArg:
    """What a failing op was given: enough to name the tensor in a report."""

    shape: tuple[int, ...]
    requires_grad: bool
    is_leaf: bool
    leaf: int | None  # the tensor itself is this leaf
    base_leaf: int | None  # it is a view of this leaf
    node: int | None  # its grad_fn (for a view: the node that made the view)
    dtype: str = ""
    cut: int | None = None  # it descends from this graph cut (id in Trace.cuts)
    inference: bool = False  # an inference tensor (made under torch.inference_mode)


@dataclass
class OpFailure:
    """A torch call that raised."""

    seq: int
    op: str
    site: Site | None
    error: ErrorInfo
    tensors: list[TensorArg] = field(default_factory=list)
    grad_enabled: bool = True
    module_call: int | None = None  # the module whose forward ran it (innermost), if one did


@dataclass
class UncaughtError:
    """The exception that ended the script, as the user saw it."""

    type: str
    message: str
    site: Site | None  # innermost user frame of the traceback
    backward_call: int | None = None  # it came out of this backward call
    op_failure: int | None = None  # or out of this failing op (index into op_failures)
    tensors: list[TensorArg] = field(default_factory=list)  # tensors in the raising library frame


@dataclass
class GraphCut:
    """Where a value that depended on tensors requiring grad stopped requiring grad.

    `reason`: "no_grad", "inference_mode", "detach", "data", "copy" (torch.tensor(t)),
    "integer" (argmax, a comparison, an integer cast), "grad_result" (autograd.grad without
    create_graph) or "other".
    """

    id: int
    seq: int
    op: str
    site: Site | None
    reason: str
    backwards_before: int  # number of backward calls made before it
    grad_off_site: Site | None = None  # the line that switched gradient tracking off
    grad_off_via: str | None = None  # library code that did it (e.g. torch/utils/checkpoint.py)
    input_node: int | None = None  # the input that required grad: its node, or
    input_leaf: int | None = None  # the leaf itself
    module: str | None = None  # module path the op ran in


@dataclass
class Escape:
    """A tensor that requires grad was turned into a Python value (`.item()`, `float(t)`, ...)."""

    seq: int
    op: str
    site: Site | None
    backwards_before: int  # number of backward calls made before it
    node: int | None = None


@dataclass
class Revival:
    """`requires_grad = True` set on a tensor cut from the graph: it trains nothing."""

    seq: int
    site: Site | None
    cut: int | None
    leaf: int | None = None  # the leaf the tensor became


@dataclass
class Freeze:
    """`p.requires_grad = False` / `p.requires_grad_(False)` on a parameter (once per line); in
    `unfreezes`, `requires_grad = True` on a parameter frozen before."""

    seq: int
    site: Site | None
    leaf: int | None = None  # the first parameter frozen (unfrozen) on that line
    undoes: int | None = None  # unfreezes: the seq of the Freeze it undoes
    frozen_backwards: int = 0  # unfreezes: backward calls made before that freeze
    backwards_before: int = 0  # unfreezes: backward calls made before it


@dataclass
class DeadTerm:
    """A 0-d sum that trains (`loss = lm_loss + aux`) with a 0-d term that descends from a graph
    cut: that term adds a number and no gradient (once per line)."""

    seq: int
    site: Site | None
    cut: int  # the cut the term descends from
    node: int | None = None  # the sum's node
    number: bool = False  # the term is a Python float read by `.item()` (`loss + aux.item()`)


@dataclass
class DdpForward:
    """A forward of a DistributedDataParallel module."""

    site: Site | None
    backwards_before: int  # backward calls made before it
    broadcasts_buffers: bool  # in training with grad on, broadcast_buffers=True and the model has buffers


@dataclass
class LeafMoved:
    """A leaf that required grad got a grad_fn from an in-place op (x[i] = w) after a graph used it."""

    seq: int
    op: str
    site: Site | None
    leaf: int


@dataclass
class GradRead:
    """A `.grad` read that returned None."""

    seq: int
    site: Site | None
    is_leaf: bool
    node: int | None = None  # for a non-leaf: the node that made it
    leaf: int | None = None


@dataclass
class ModuleFlag:
    """A module with a `requires_grad` attribute of its own (`module.requires_grad = False`): a
    plain Python attribute, which freezes nothing (`module.requires_grad_(False)` sets the flag
    of every parameter). Where it was set is found in the source by the rule."""

    module: str | None  # its path in the model ("" for the model itself), if known
    module_type: str
    value: bool | None  # None: not a bool
    trainable: list[int] = field(default_factory=list)  # leaves of its parameters that still require grad (at the end)


@dataclass
class BuiltInForward:
    """A layer (a module with parameters) built while a forward ran: new weights every call."""

    site: Site | None  # where its parameters were registered (with the callers: the forward)
    module_type: str  # e.g. "Linear"
    inside: str | None  # the class whose forward was running, e.g. "MultiHeadAttention"


@dataclass
class HookRegistration:
    """A `Tensor.register_hook` call: the hook's name and where it is defined."""

    seq: int
    name: str
    site: Site | None
    defined_at: Site | None = None


@dataclass
class ScalerEvent:
    """A gradient-scaling event, once per user line: `clip` (clip_grad_norm_ measured the
    gradients), `unscale` (a GradScaler divided them by its scale, in `unscale_` or in `step`)."""

    seq: int
    kind: str
    site: Site | None


@dataclass
class StaleLink:
    """A new node that links to a node an earlier backward call already ran and freed."""

    seq: int
    op: str
    site: Site | None
    backwards_before: int  # number of backward calls made before it
    old_node: int
    repeats: int = 1  # how many times this line linked into freed graphs (a loop, if > 1)
    # how many times a value this line made was extended in a later iteration (after a backward
    # call): the old graphs it holds survive and pile up. 0: made and consumed within one step.
    carried: int = 0


@dataclass
class GradHazard:
    """Something wrong with parameter gradients, seen at an optimizer step.

    `kind`: "not-zeroed" (gradients accumulate across steps), "nonfinite" (NaN/inf in .grad),
    "never-graded" (a parameter of a stepped optimizer whose .grad stayed None while others
    got one), "not-in-optimizer" (a module parameter got a .grad but no optimizer steps it),
    "accumulation-wiped" (gradients reset between two backward calls of one line that the step
    was meant to sum: the step uses only the last one).
    """

    kind: str
    leaves: list[int]
    site: Site | None  # the optimizer.step() line (or the end of the run)
    optimizer: str = ""
    step: int = 0  # 1-based step of that optimizer
    backwards_before: int | None = None  # nonfinite: backward calls made before that step
    zero_sites: list[Site] = field(default_factory=list)  # accumulation-wiped: the lines that reset the gradients
    backward_site: Site | None = None  # accumulation-wiped: the backward call whose gradients it reset
    # not-in-optimizer: the plain list/dict attribute holding their modules ("SNLINet.hids", "list")
    # and the lines of its class that fill it
    container: str | None = None
    container_kind: str | None = None
    container_sites: list[Site] = field(default_factory=list)


@dataclass
class OptimizerStep:
    """The first step of an optimizer (where training of its parameters begins)."""

    seq: int
    site: Site | None
    optimizer: str  # class name, e.g. "SGD"


@dataclass
class ParamStep:
    """The parameter ledger of one of an optimizer's first steps: what the step found in .grad
    and which parameters it changed (their version moved), by leaf id (at most a few of each)."""

    optimizer: str
    step: int  # 1-based
    site: Site | None
    params: int  # parameters the optimizer holds
    changed: int  # how many the step changed
    frozen_changed: list[int] = field(default_factory=list)  # requires_grad=False, yet changed
    changed_leaves: list[int] = field(default_factory=list)  # some of those it changed
    grad_none: list[int] = field(default_factory=list)  # requires grad, .grad None at the step
    grad_zero: list[int] = field(default_factory=list)  # .grad exactly zero everywhere at the step
    frozen_grad_none: list[int] = field(default_factory=list)  # requires_grad=False and .grad None at the step
    grad_nonzero: int = 0  # how many had a .grad with a non-zero element
    optimizer_index: int = 0  # which optimizer of the run (two of one class are told apart)
    seq: int = 0  # when the step began (the shared event counter)
    groups: int = 1  # its parameter groups (more than one: built from groups the program lists)
    # the lines of the backward calls whose gradients the step applied (those since .grad was
    # last reset; at most 4, oldest first)
    backward_sites: list[Site] = field(default_factory=list)
    # for a later step of an optimizer with step pre-hooks of its own: where they are defined
    step_hooks: list[Site] = field(default_factory=list)


@dataclass
class NanOrigin:
    """The first backward node that produced a non-finite gradient from finite ones (--check-nan)."""

    node: int
    output_index: int  # which of its gradient outputs (= forward inputs)
    value: str  # "nan" or "inf"
    backward_call: int
    # When that node's saved forward values were already non-finite: the earliest op upstream
    # that made a non-finite value (the NaN came from the forward)
    forward_node: int | None = None


@dataclass
class FlowSeries:
    """Gradient statistics of one watched tensor, per recorded backward call (`GradFlow.steps`);
    None where it got no gradient in that call."""

    name: str  # parameter path ("encoder.0.weight"), or module path for a module's output
    kind: str  # "parameter" or "output" (a module's output activation)
    module_type: str  # e.g. "Linear"
    site: Site | None  # parameter: where its module was built; otherwise where the module was called
    numel: int  # elements of the tensor (for a module called several times per step: of one call)
    order: int  # position in the forward pass (first seen)
    norms: list[float | None] = field(default_factory=list)
    max_abs: list[float | None] = field(default_factory=list)
    zero_fraction: list[float | None] = field(default_factory=list)
    finite: list[bool | None] = field(default_factory=list)
    dead_units: list[float | None] = field(default_factory=list)  # ReLU outputs: units zero for every sample
    module: str | None = None  # path of the module (the owner, for a parameter), as in ModuleCall.name
    leaf: int | None = None  # for a parameter: its leaf id

    def last_norm(self) -> float | None:
        """The norm at the latest step that has a finite one."""
        return next((n for n in reversed(self.norms) if n is not None and math.isfinite(n)), None)


@dataclass
class GradFlow:
    """What `--grad-flow` recorded: statistics only, never a gradient tensor."""

    steps: list[int] = field(default_factory=list)  # backward call index of each column
    series: list[FlowSeries] = field(default_factory=list)
    thresholds: dict = field(default_factory=dict)  # as used by the grad-flow rules
    first_nonfinite: list[int] | None = None  # [series index, column] where NaN/inf first appeared
    stride: int = 1  # columns kept every `stride` backward calls (long runs are thinned)


@dataclass
class Stopped:
    """Where the program was when a signal ended it (SIGTERM from a launcher, a scheduler, a
    test's timeout). `outside_python`: it was waiting in C++ (a collective, a future), so the
    innermost frame is the call that waits."""

    signal: str
    site: Site | None = None  # the innermost frame of the user's code
    stack: list[Site] = field(default_factory=list)  # the main thread's frames, outermost first (at most 24)
    outside_python: bool = False


@dataclass
class Trace:
    argv: list[str]
    nodes: dict[int, Node] = field(default_factory=dict)
    leaves: dict[int, Leaf] = field(default_factory=dict)
    inplace_changes: list[InplaceChange] = field(default_factory=list)
    backward_calls: list[BackwardCall] = field(default_factory=list)
    op_failures: list[OpFailure] = field(default_factory=list)
    internal_errors: list[str] = field(default_factory=list)
    error: UncaughtError | None = None
    exit_status: int = 0
    module_calls: dict[int, ModuleCall] = field(default_factory=dict)
    mode_switches: list[ModeSwitch] = field(default_factory=list)
    mode_sets: list[ModeSet] = field(default_factory=list)  # the program's .train()/.eval() calls
    state_loads: list[StateLoad] = field(default_factory=list)  # load_state_dict calls that changed nothing
    frozen_norms: list[int] = field(default_factory=list)  # module ids (ModuleCall.module) of norm layers seen fully frozen
    frozen_since: list[int] = field(default_factory=list)  # for each: the last module call id before it was seen so
    unfed_norms: list[int] = field(default_factory=list)  # module ids of norm layers evaluated with statistics never gathered
    ddp_parameters: list[str] = field(default_factory=list)  # what a DDP wraps, in its order (its errors give indices)
    ddp_forwards: list[DdpForward] = field(default_factory=list)
    meta: dict = field(default_factory=dict)  # python, torch and gradscope versions, ...
    cuts: dict[int, GraphCut] = field(default_factory=dict)
    escapes: list[Escape] = field(default_factory=list)
    revivals: list[Revival] = field(default_factory=list)
    freezes: list[Freeze] = field(default_factory=list)
    unfreezes: list[Freeze] = field(default_factory=list)
    dead_terms: list[DeadTerm] = field(default_factory=list)
    leaves_moved: list[LeafMoved] = field(default_factory=list)
    grad_reads: list[GradRead] = field(default_factory=list)
    hooks: list[HookRegistration] = field(default_factory=list)
    module_flags: list[ModuleFlag] = field(default_factory=list)
    built_in_forward: list[BuiltInForward] = field(default_factory=list)
    first_calls: dict[str, Site | None] = field(default_factory=dict)  # module class -> where its first forward was called
    stale_links: list[StaleLink] = field(default_factory=list)
    clips: list[ScalerEvent] = field(default_factory=list)  # gradient clipping, first per line
    unscales: list[ScalerEvent] = field(default_factory=list)  # GradScaler unscaling, first per line
    grad_hazards: list[GradHazard] = field(default_factory=list)
    first_steps: list[OptimizerStep] = field(default_factory=list)  # of each optimizer (at most 16)
    param_steps: list[ParamStep] = field(default_factory=list)  # the ledger of each optimizer's first steps
    nan_origins: list[NanOrigin] = field(default_factory=list)
    grad_resets: list[int] = field(default_factory=list)  # seq of each `.grad = None`
    functions: dict[str, Site] = field(default_factory=dict)  # custom Function node name -> definition
    saved_hazards: list[SavedHazard] = field(default_factory=list)
    grad_flow: GradFlow | None = None  # with `--grad-flow`
    stopped: Stopped | None = None  # ended by a signal (SIGTERM): where it was

    def node(self, node_id: int | None) -> Node | None:
        return None if node_id is None else self.nodes.get(node_id)

    def leaf(self, leaf_id: int | None) -> Leaf | None:
        return None if leaf_id is None else self.leaves.get(leaf_id)

    def cut(self, cut_id: int | None) -> GraphCut | None:
        return None if cut_id is None else self.cuts.get(cut_id)
