import torch


def get_sequence_parallel_world_size():
    return 1


class _GatherFromSequenceParallelRegion(torch.autograd.Function):
    @staticmethod
    def forward(ctx, input_):
        if get_sequence_parallel_world_size() == 1:
            return input_
        raise NotImplementedError

    @staticmethod
    def backward(ctx, grad_output):
        if get_sequence_parallel_world_size() == 1:
            return grad_output
        raise NotImplementedError


def gather_from_sequence_parallel_region(x):
    return _GatherFromSequenceParallelRegion.apply(x)
