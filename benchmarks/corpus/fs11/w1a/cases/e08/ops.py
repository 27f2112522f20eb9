import torch


def kept_mask(ranks):
    kept = torch.ones(ranks.shape[0], device=ranks.device, dtype=torch.bool)
    kept[:-1] = ranks[1:] != ranks[:-1]
    return kept


def kept_indices(ranks):
    return torch.nonzero(kept_mask(ranks), as_tuple=True)


def cumsum_trick(x, geom_feats, ranks):
    x = x.cumsum(0)
    kept = kept_mask(ranks)
    x, geom_feats = x[kept], geom_feats[kept]
    x = torch.cat((x[:1], x[1:] - x[:-1]))
    return x, geom_feats


class QuickCumsum(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, geom_feats, ranks):
        n = x.shape[0]
        x = x.cumsum(0)
        kept = kept_indices(ranks)
        x, geom_feats = x[kept], geom_feats[kept]
        x = torch.cat((x[:1], x[1:] - x[:-1]))
        ctx.save_for_backward(ranks, kept)
        ctx.n = n
        ctx.mark_non_differentiable(geom_feats)
        return x, geom_feats

    @staticmethod
    def backward(ctx, gradx, gradgeom):
        ranks, kept = ctx.saved_tensors
        mask = torch.zeros(ctx.n, dtype=torch.bool, device=gradx.device)
        mask[kept] = True
        back = torch.cumsum(mask, 0)
        back[mask] -= 1
        return gradx[back], None, None


POOL_IMPLS = {
    "cumsum": cumsum_trick,
    "quick": QuickCumsum.apply,
}
