import torch
import torch.distributed as dist


def _exchange(x, world_size, group, scatter_dim, gather_dim, concat_output):
    if world_size == 1:
        return x
    inputs = [t.contiguous() for t in torch.tensor_split(x, world_size, scatter_dim)]
    outputs = [torch.empty_like(inputs[0]) for _ in range(world_size)]
    dist.all_to_all(outputs, inputs, group=group)
    if not concat_output:
        return outputs[0]
    return torch.cat(outputs, dim=gather_dim).contiguous()


class _SeqAllToAll(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, group, world_size, scatter_dim, gather_dim, concat_output):
        ctx.group = group
        ctx.world_size = world_size
        ctx.scatter_dim = scatter_dim
        ctx.gather_dim = gather_dim
        ctx.concat_output = concat_output
        return _exchange(x, world_size, group, scatter_dim, gather_dim, concat_output)

    @staticmethod
    def backward(ctx, grad_output):
        grad = _exchange(grad_output, ctx.world_size, ctx.group,
                         ctx.gather_dim, ctx.scatter_dim, ctx.concat_output)
        return grad, None, None, None, None


def seq_all_to_all(x, group=None, world_size=1, scatter_dim=2, gather_dim=1,
                   concat_output=True):
    return _SeqAllToAll.apply(x, group, world_size, scatter_dim, gather_dim, concat_output)


def get_sp_world_size(group=None):
    if dist.is_available() and dist.is_initialized():
        return dist.get_world_size(group)
    return 1
