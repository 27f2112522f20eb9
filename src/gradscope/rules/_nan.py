"""Advice for a non-finite gradient, by the forward op that produced it."""

from __future__ import annotations

_BY_OP = {
    "sqrt": "sqrt's gradient 1/(2*sqrt(x)) is infinite at 0. Clamp the input first "
            "(`torch.sqrt(x.clamp_min(1e-12))`), or use torch.linalg.norm, whose gradient at 0 is defined.",
    "rsqrt": "rsqrt's gradient is infinite at 0: clamp the input first (`x.clamp_min(1e-12)`).",
    "pow": "x ** p with p < 1 has an infinite gradient at 0: clamp the base first (`x.clamp_min(1e-12) ** p`).",
    "__pow__": "x ** p with p < 1 has an infinite gradient at 0: clamp the base first (`x.clamp_min(1e-12) ** p`).",
    "log": "log's gradient 1/x is infinite at 0: clamp the input first (`torch.log(x.clamp_min(1e-12))`) "
           "or use log_softmax / logsumexp instead of log(softmax(...)).",
    "acos": "acos and asin have infinite gradients at ±1: clamp first (`x.clamp(-1 + 1e-6, 1 - 1e-6)`).",
    "asin": "acos and asin have infinite gradients at ±1: clamp first (`x.clamp(-1 + 1e-6, 1 - 1e-6)`).",
    "where": "torch.where differentiates both branches: the branch it did not pick still sends 0 * inf = NaN "
             "back. Make the unused branch safe too (the double-where trick: mask the input before the op, "
             "e.g. `safe = torch.where(mask, x, 1.0)`, then `torch.where(mask, f(safe), 0.0)`).",
    "exp": "exp overflows to inf for large inputs (above ~88 in float32), and its backward multiplies by that "
           "inf (0 * inf = NaN where the value was masked or not selected, as in one branch of torch.where): clamp "
           "the input of exp to the range where it is used (`torch.exp(x.clamp(max=0))`), or use a stable form "
           "(softplus, logsumexp, F.elu).",
    "div": "Division by zero makes the gradient infinite: mask or clamp the denominator before dividing.",
    "__truediv__": "Division by zero makes the gradient infinite: mask or clamp the denominator before dividing.",
    "__rtruediv__": "Division by zero makes the gradient infinite: mask or clamp the denominator before dividing.",
    "softmax": "A row whose every entry is masked with -inf has no valid softmax: its output and gradient are "
               "NaN. Mask with a large negative number (e.g. torch.finfo(x.dtype).min) or skip empty rows.",
    "log_softmax": "A fully masked row (all -inf) gives NaN: mask with a large negative finite value instead.",
}


def is_known(op: str | None) -> bool:
    return op in _BY_OP


def advice(op: str | None) -> str:
    return _BY_OP.get(op or "", "Find the input values that make this op's derivative infinite or undefined, "
                                "and clamp or mask them before the op (not after it).")
