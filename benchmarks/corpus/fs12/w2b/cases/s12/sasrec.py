import torch
import torch.nn as nn

from layers import TransformerLayer


class SASRec(nn.Module):
    def __init__(self, n_items, max_his=10, emb_size=32, num_heads=2, dropout=0.1):
        super().__init__()
        self.max_his = max_his
        self.i_embeddings = nn.Embedding(n_items + 1, emb_size, padding_idx=0)
        self.p_embeddings = nn.Embedding(max_his + 1, emb_size)
        self.transformer_block = TransformerLayer(emb_size, emb_size, num_heads, dropout)

    def forward(self, history, lengths, candidates):
        batch_size, seq_len = history.shape
        valid_his = (history > 0).long()
        his_vectors = self.i_embeddings(history)
        position = (lengths[:, None] - torch.arange(seq_len)[None, :]) * valid_his
        his_vectors = his_vectors + self.p_embeddings(position)

        causality_mask = torch.tril(torch.ones(seq_len, seq_len, dtype=torch.long))
        attn_mask = causality_mask[None, None] * valid_his[:, None, None, :]
        his_vectors = self.transformer_block(his_vectors, attn_mask)
        his_vector = his_vectors[torch.arange(batch_size), lengths - 1]

        i_vectors = self.i_embeddings(candidates)
        return (his_vector[:, None, :] * i_vectors).sum(-1)
