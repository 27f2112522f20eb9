import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class SkipGramModel(nn.Module):
    def __init__(self, emb_size, emb_dimension):
        super().__init__()
        self.emb_size = emb_size
        self.emb_dimension = emb_dimension
        self.u_embeddings = nn.Embedding(emb_size, emb_dimension, sparse=True)
        self.v_embeddings = nn.Embedding(emb_size, emb_dimension, sparse=True)
        self.init_emb()

    def init_emb(self):
        initrange = 0.5 / self.emb_dimension
        self.u_embeddings.weight.data.uniform_(-initrange, initrange)
        self.v_embeddings.weight.data.uniform_(-0, 0)

    def forward(self, pos_u, pos_v, neg_u, neg_v):
        emb_u = self.u_embeddings(torch.LongTensor(pos_u))
        emb_v = self.v_embeddings(torch.LongTensor(pos_v))
        score = F.logsigmoid(torch.sum(emb_u * emb_v, dim=1))
        neg_emb_u = self.u_embeddings(torch.LongTensor(neg_u))
        neg_emb_v = self.v_embeddings(torch.LongTensor(neg_v))
        neg_score = F.logsigmoid(-torch.sum(neg_emb_u * neg_emb_v, dim=1))
        return -(score.sum() + neg_score.sum())


class CBOW(nn.Module):
    def __init__(self, emb_size, emb_dimension):
        super().__init__()
        self.emb_size = emb_size
        self.emb_dimension = emb_dimension
        self.u_embeddings = nn.Embedding(emb_size, emb_dimension, sparse=True)
        self.v_embeddings = nn.Embedding(emb_size, emb_dimension, sparse=True)
        self.init_emb()

    def init_emb(self):
        initrange = 0.5 / self.emb_dimension
        self.u_embeddings.weight.data.uniform_(-initrange, initrange)
        self.v_embeddings.weight.data.uniform_(-initrange, initrange)

    def context_vectors(self, windows):
        emb = self.u_embeddings(torch.LongTensor(windows))
        return torch.from_numpy(np.sum(emb.data.numpy(), axis=1))

    def forward(self, pos_u, pos_v, neg_u, neg_v):
        emb_u = self.context_vectors(pos_u)
        emb_v = self.v_embeddings(torch.LongTensor(pos_v))
        score = F.logsigmoid(torch.sum(emb_u * emb_v, dim=1))
        neg_emb_u = self.context_vectors(neg_u)
        neg_emb_v = self.v_embeddings(torch.LongTensor(neg_v))
        neg_score = F.logsigmoid(-torch.sum(neg_emb_u * neg_emb_v, dim=1))
        return -(score.sum() + neg_score.sum())


MODELS = {"skipgram": SkipGramModel, "cbow": CBOW}
