"""Zeroing the padding row of an embedding table through a view, with grad on."""
import torch.nn as nn

PAD = 0
vocab = nn.Embedding(10, 4)
vocab.weight[PAD].zero_()
