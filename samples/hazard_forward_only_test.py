"""A forward-only check (what a unit test of a model often is): the activation's output is
scaled in place after sigmoid saved it. Nothing raises without a backward."""
import torch


def attention_weights(query, keys, temperature):
    weights = torch.sigmoid(query @ keys.T)
    weights.div_(temperature)  # changes the sigmoid's saved output
    return weights


query = torch.randn(2, 4, requires_grad=True)
keys = torch.randn(5, 4, requires_grad=True)
weights = attention_weights(query, keys, 2.0)
assert weights.shape == (2, 5)
print("shape ok", tuple(weights.shape))
