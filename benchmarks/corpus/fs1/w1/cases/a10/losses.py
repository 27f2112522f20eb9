import torch
import torch.nn.functional as F


class FusedFrameCrossEntropy(torch.autograd.Function):
    """Frame-level cross entropy for large senone inventories.

    Memory-efficient replacement for F.cross_entropy used by the alignment head.
    """

    @staticmethod
    def forward(ctx, logits, targets, ignore_index):
        log_probs = torch.log_softmax(logits.float(), dim=-1)
        valid = targets != ignore_index
        safe_targets = targets.masked_fill(~valid, 0)
        nll = -log_probs.gather(-1, safe_targets.unsqueeze(-1)).squeeze(-1)
        count = valid.sum().clamp_min(1)
        grad = log_probs.exp()
        grad.scatter_add_(-1, safe_targets.unsqueeze(-1), -torch.ones_like(nll).unsqueeze(-1))
        grad.mul_((valid.float() / count).unsqueeze(-1))
        ctx.save_for_backward(grad)
        return (nll * valid).sum() / count

    @staticmethod
    def backward(ctx, grad_output):
        (grad,) = ctx.saved_tensors
        grad.mul_(grad_output)
        return grad, None, None


def frame_cross_entropy(logits, targets, ignore_index=-100):
    return FusedFrameCrossEntropy.apply(logits, targets, ignore_index)


def ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0):
    return F.ctc_loss(log_probs.transpose(0, 1), targets, input_lengths, target_lengths,
                      blank=blank, zero_infinity=True)
