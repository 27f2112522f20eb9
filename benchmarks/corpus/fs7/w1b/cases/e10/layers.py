import numpy as np
import torch
import torch.nn as nn


def create_sinusoidal_embeddings(nb_p, dim, E):
    theta = np.array([
        [p / np.power(10000, 2 * (j // 2) / dim) for j in range(dim)]
        for p in range(nb_p)
    ])
    E[:, 0::2] = torch.FloatTensor(np.sin(theta[:, 0::2]))
    E[:, 1::2] = torch.FloatTensor(np.cos(theta[:, 1::2]))
    E.requires_grad = False
    E = E.to(torch.float32)
    return E


class Embeddings(nn.Module):
    def __init__(self, d_model, vocab_size, max_position_embeddings, p, sinusoidal=True):
        super().__init__()
        self.word_embeddings = nn.Embedding(vocab_size, d_model, padding_idx=1)
        self.position_embeddings = nn.Embedding(max_position_embeddings, d_model)
        if sinusoidal:
            pe = self.position_embeddings.weight
            create_sinusoidal_embeddings(max_position_embeddings, d_model, pe)
        self.LayerNorm = nn.LayerNorm(d_model, eps=1e-12)
        self.dropout = nn.Dropout(p)

    def forward(self, input_ids):
        seq_length = input_ids.size(1)
        position_ids = torch.arange(seq_length, dtype=torch.long, device=input_ids.device)
        position_ids = position_ids.unsqueeze(0).expand_as(input_ids)
        embeddings = self.word_embeddings(input_ids) + self.position_embeddings(position_ids)
        return self.dropout(self.LayerNorm(embeddings))


class MultiHeadAttention(nn.Module):
    def __init__(self, d_model, num_heads, p=0.1):
        super().__init__()
        self.d_model = d_model
        self.num_heads = num_heads
        self.d_k = d_model // num_heads
        self.W_q = nn.Linear(d_model, d_model, bias=False)
        self.W_k = nn.Linear(d_model, d_model, bias=False)
        self.W_v = nn.Linear(d_model, d_model, bias=False)
        self.W_h = nn.Linear(d_model, d_model)
        self.dropout = nn.Dropout(p)

    def split_heads(self, x, batch_size):
        return x.view(batch_size, -1, self.num_heads, self.d_k).transpose(1, 2)

    def forward(self, X_q, X_k, X_v):
        batch_size = X_q.size(0)
        Q = self.split_heads(self.W_q(X_q), batch_size) / np.sqrt(self.d_k)
        K = self.split_heads(self.W_k(X_k), batch_size)
        V = self.split_heads(self.W_v(X_v), batch_size)
        A = torch.softmax(Q @ K.transpose(2, 3), dim=-1)
        H = (self.dropout(A) @ V).transpose(1, 2).contiguous().view(batch_size, -1, self.d_model)
        return self.W_h(H), A


class EncoderLayer(nn.Module):
    def __init__(self, d_model, num_heads, conv_hidden_dim, p=0.1):
        super().__init__()
        self.mha = MultiHeadAttention(d_model, num_heads, p)
        self.cnn = nn.Sequential(nn.Linear(d_model, conv_hidden_dim), nn.ReLU(),
                                 nn.Linear(conv_hidden_dim, d_model))
        self.layernorm1 = nn.LayerNorm(d_model, eps=1e-6)
        self.layernorm2 = nn.LayerNorm(d_model, eps=1e-6)

    def forward(self, x):
        attn_output, _ = self.mha(x, x, x)
        out1 = self.layernorm1(x + attn_output)
        return self.layernorm2(out1 + self.cnn(out1))
