import torch


class _GetTotScoresFunction(torch.autograd.Function):
    """Log-sum over all paths of a batch of dense 'FSAs' (frames x arcs)."""

    @staticmethod
    def forward(ctx, arc_scores, lengths):
        # arc_scores: (B, T, A); total score of each sequence = sum_t logsumexp_a
        T = arc_scores.size(1)
        valid = torch.arange(T).unsqueeze(0) < lengths.unsqueeze(1)
        frame_tot = torch.logsumexp(arc_scores, dim=-1) * valid
        tot_scores = frame_tot.sum(dim=1)
        ctx.save_for_backward(arc_scores, valid)
        return tot_scores

    @staticmethod
    def backward(ctx, tot_scores_grad):
        arc_scores, valid = ctx.saved_tensors
        arc_post = torch.softmax(arc_scores, dim=-1) * valid.unsqueeze(-1)
        return arc_post, None


def get_tot_scores(arc_scores, lengths):
    return _GetTotScoresFunction.apply(arc_scores, lengths)
