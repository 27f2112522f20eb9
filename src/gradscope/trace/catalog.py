"""Every rule id gradscope can report, with its default severity and a one-line summary.

Used to check configuration (an unknown id in `[tool.gradscope]` is a typo worth an error), to
describe rules in SARIF reports, and by `gradscope rules`. A test keeps it in step with the ids
the rules emit.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class RuleInfo:
    id: str
    severity: str  # default: "error" or "warning"
    summary: str


def _rules(severity: str, entries: dict[str, str]) -> dict[str, RuleInfo]:
    return {rule: RuleInfo(rule, severity, summary) for rule, summary in entries.items()}


CATALOG: dict[str, RuleInfo] = {
    **_rules("error", {
        # Hazards caught before anything raised (the CI gate's main rule).
        "inplace-hazard": "An in-place change of a tensor saved for a backward that has not run yet.",
        # Errors torch raised, explained with their lines.
        "inplace-modified-saved-tensor": "A tensor saved for backward was modified in place before the backward.",
        "backward-through-freed-graph": "Backward through a graph that an earlier backward already freed.",
        "inplace-on-leaf": "An in-place change of a leaf tensor that requires grad (or of its view).",
        "backward-error": "Another error raised by a backward call.",
        "autograd-error": "An autograd error no other rule explains: the tensors involved and where they were made.",
        "backward-without-graph": "Backward on a tensor cut off from the graph (no_grad, detach, .data, ...).",
        "backward-non-scalar": "Backward on a non-scalar tensor without a gradient argument.",
        "backward-gradient-mismatch": "The gradient passed to backward does not match the tensor's shape.",
        "custom-function-bad-gradient": "A custom autograd.Function returned a gradient of the wrong shape or count.",
        "custom-function-misuse": "A custom autograd.Function is used or defined in a way autograd rejects.",
        "legacy-autograd-function": "A legacy autograd.Function (instantiated and called) instead of .apply.",
        "hook-changed-gradient": "A tensor hook returned a gradient of a different size.",
        "hook-on-tensor-without-grad": "A hook registered on a tensor that does not require grad.",
        "grad-input-unused": "torch.autograd.grad: an input was not used to compute the outputs.",
        "grad-input-without-grad": "torch.autograd.grad: an input does not require grad.",
        "multi-output-view-inplace": "In-place change of a view returned by unbind/split/chunk.",
        "custom-function-view-inplace": "In-place change of a view returned by a custom Function.",
        "no-grad-view-inplace": "In-place change, with grad on, of a view made under no_grad.",
        "detach-view-inplace": "In-place change of a view of a detach()ed tensor that autograd needs.",
        "leaf-moved-into-graph": "A leaf became part of a graph through an in-place op, then backward failed.",
        "requires-grad-on-non-leaf": "requires_grad changed on a tensor that is not a leaf.",
        "optimizer-non-leaf": "An optimizer was given a non-leaf tensor.",
        "only-float-requires-grad": "requires_grad on an integer tensor.",
        "inference-tensor-in-autograd": "A tensor made under inference_mode used where autograd needs to save it.",
        "func-transform-mutates-capture": "An in-place write, inside a torch.func transform, to a tensor the function captured (a BatchNorm's running statistics).",
        "numpy-on-requires-grad": "numpy() on a tensor that requires grad.",
        "resize-requires-grad": "resize_ on a tensor that requires grad.",
        "out-argument-with-grad": "out= on an op whose inputs require grad.",
        "derivative-not-implemented": "Backward through an op that has no derivative formula.",
        "checkpoint-reentrant-grad": "torch.autograd.grad inside reentrant checkpointing.",
        "checkpoint-recompute-mismatch": "A checkpointed region recomputed different tensors than it saved.",
        "grad-is-none": "A .grad that is None was used as a tensor.",
        "amp-fp16-master-weights": "fp16 parameters stepped without a GradScaler's unscale.",
        "ddp-unused-parameters": "DistributedDataParallel found parameters that got no gradient.",
        "ddp-marked-ready-twice": "DistributedDataParallel got one parameter's gradient twice in one iteration.",
        "ddp-peer-stopped": "A backward's collective failed because another rank stopped first.",
        "gradcheck-failure": "torch.autograd.gradcheck found a wrong backward.",
        "nan-in-backward": "Anomaly mode found a backward node that returned NaN.",
    }),
    **_rules("warning", {
        "ddp-step-without-sync": "An optimizer step on gradients DDP never all-reduced (no_sync() around every backward).",
        "ddp-buffers-changed-between-forwards": "Two forwards of a DDP module that broadcasts buffers, before one backward.",
        "requires-grad-on-detached-result": "requires_grad switched on for a result cut from the graph: it trains nothing.",
        "data-write-to-saved-tensor": "A write through .data into a tensor saved for a backward that then ran.",
        "grad-not-zeroed": "Gradients accumulate across optimizer steps (no zero_grad).",
        "nonfinite-gradient": "NaN or inf in gradients.",
        "parameter-without-gradient": "Parameters whose .grad stays None while others of the model get one.",
        "parameter-not-in-optimizer": "Parameters that get gradients but that no optimizer steps.",
        "backward-on-leaf": "backward() on a tensor made as a new leaf from values: no parameter gets a gradient.",
        "layer-built-in-forward": "Layers constructed inside a forward: new random weights every call, never trained.",
        "module-backward-never-called": "An nn.Module that defines its own backward(): autograd never calls it (write a torch.autograd.Function).",
        "target-is-online-network": "A target (or EMA teacher) network that is the online network object itself.",
        "loss-term-without-gradient": "A term cut from the graph summed into a loss that trains: it trains nothing.",
        "frozen-parameter-updated": "Parameters with requires_grad=False that an optimizer step still changes.",
        "eval-mode-module-trained": "A module that runs in eval mode while the optimizer trains its parameters.",
        "optimizer-step-never-ran": "Backward runs again and again, but the optimizer step after it never runs (its condition is never true).",
        "training-in-eval-mode": "A model trains in eval mode: left there by an evaluation, or never put in train mode (a loader returns it in eval mode).",
        "clipped-while-scaled": "Gradients clipped before the GradScaler unscales them: the clipping works in scaled units and every update is far too small.",
        "clipped-before-backward": "Gradients clipped before the backward that makes them: every optimizer step uses unclipped gradients.",
        "frozen-norm-in-train-mode": "Batch norm with frozen parameters, meant to stay in eval mode, runs in train mode: its statistics drift.",
        "norm-evaluated-without-statistics": "Batch norm evaluated with running statistics it never gathered (an EMA copy that averages parameters only).",
        "zero-gradient": "Parameters whose gradient is exactly zero at every step (a zero-derivative op on the way).",
        "freeze-undone": "Parameters frozen, then set trainable again before any training: the freeze never took effect.",
        "accumulation-wiped": "Gradients reset between the backward calls of an accumulation window.",
        "gradients-leak-into-first-step": "The first optimizer step also applies the gradients of a backward run once before training (a gradient check) that nothing reset.",
        "module-requires-grad-attribute": "module.requires_grad = False: a plain attribute that freezes nothing.",
        "non-leaf-grad-read": ".grad read on a non-leaf tensor (always None without retain_grad).",
        "backward-create-graph-cycle": "backward(create_graph=True) into .grad keeps graphs alive.",
        "function-ignores-incoming-gradient": "A custom Function whose backward never reads the gradient it is given (the chain rule broken).",
        "eval-undone-by-train": "Parts of a model set to eval mode, put back in train mode by a `.train()` of the whole before they ran.",
        "accumulated-gradients-summed": "Gradient accumulation whose micro-batch losses are not divided by their number: each step applies the sum.",
        "load-state-dict-no-op": "A load_state_dict after training steps that copied the module's own tensors onto themselves (a state dict kept without a copy, or a module loaded from itself): it changed nothing.",
        "loss-term-counted-twice": "A loss term that reaches the loss along two paths of sums and scalings (added in place into another loss, then added again): counted twice.",
        "loss-value-left-out": "A loss-like value computed beside the loss, in the same function, that no backward went through (a term left out).",
        "hook-bad-return": "A module backward hook returned something other than a tuple of one gradient per input.",
        "gradient-graph-unused": "A value built on create_graph=True gradients (a gradient penalty) that no backward ever went through.",
        "graph-kept-alive": "A value keeps earlier iterations' graphs alive (e.g. total += loss).",
        "vanishing-gradient": "--grad-flow: layers whose gradients are orders of magnitude smaller than others'.",
        "exploding-gradient": "--grad-flow: gradient norms above a bound or growing step over step.",
        "dead-relu": "--grad-flow: a ReLU whose units output zero for every sample (no gradient passes).",
        "unused-suppression": "A `# gradscope: ignore[...]` comment that suppressed nothing.",
    }),
}
