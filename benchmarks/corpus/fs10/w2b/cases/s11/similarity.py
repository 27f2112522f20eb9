import torch


def cos_sim(a, b):
    a = torch.nn.functional.normalize(a, p=2, dim=-1)
    b = torch.nn.functional.normalize(b, p=2, dim=-1)
    return (a * b).sum(dim=-1)


def pairwise_euclidean_sim(a, b):
    return -torch.sqrt(torch.sum((a - b) ** 2, dim=-1))


def pairwise_manhattan_sim(a, b):
    return -torch.sum(torch.abs(a - b), dim=-1)
