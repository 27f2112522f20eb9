import torch
from torch import nn

from regularizers import resolve_regularizer


class Embedding(nn.Module):
    def __init__(self, num_embeddings, embedding_dim, regularizer=None, regularizer_kwargs=None):
        super().__init__()
        self._embeddings = nn.Embedding(num_embeddings, embedding_dim)
        nn.init.xavier_uniform_(self._embeddings.weight)
        self.regularizer = resolve_regularizer(regularizer, **(regularizer_kwargs or {}))

    def forward(self, indices):
        x = self._embeddings(indices)
        self.regularizer.update(x)
        return x


class TransE(nn.Module):
    def __init__(self, num_entities, num_relations, embedding_dim=32, scoring_fct_norm=1,
                 entity_regularizer=None, entity_regularizer_kwargs=None):
        super().__init__()
        self.scoring_fct_norm = scoring_fct_norm
        self.entity_representations = Embedding(num_entities, embedding_dim,
                                                regularizer=entity_regularizer,
                                                regularizer_kwargs=entity_regularizer_kwargs)
        self.relation_representations = Embedding(num_relations, embedding_dim)

    def score_hrt(self, hrt_batch):
        h = self.entity_representations(hrt_batch[:, 0])
        r = self.relation_representations(hrt_batch[:, 1])
        t = self.entity_representations(hrt_batch[:, 2])
        return -torch.linalg.vector_norm(h + r - t, ord=self.scoring_fct_norm, dim=-1, keepdim=True)

    def collect_regularization_term(self):
        return sum(
            module.pop_regularization_term()
            for module in self.modules()
            if hasattr(module, "pop_regularization_term")
        )
