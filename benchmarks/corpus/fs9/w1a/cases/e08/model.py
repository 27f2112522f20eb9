import torch
import torch.nn.functional as F
from torch import nn


class Encoder(nn.Module):
    def __init__(self, vocab_size, emb_dim, hidden, z_dim, c_dim):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, emb_dim)
        self.rnn = nn.GRU(emb_dim, hidden, batch_first=True)
        self.mu = nn.Linear(hidden, z_dim)
        self.logvar = nn.Linear(hidden, z_dim)
        self.c_dim = c_dim

    def encode_embedded(self, emb):
        _, h = self.rnn(emb)
        h = h[-1]
        return self.mu(h), self.logvar(h)

    def forward(self, tokens):
        return self.encode_embedded(self.embedding(tokens))

    def encode_soft(self, probs):
        return self.encode_embedded(probs @ self.embedding.weight)


class Decoder(nn.Module):
    def __init__(self, vocab_size, emb_dim, hidden, z_dim, c_dim):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, emb_dim)
        self.init_h = nn.Linear(z_dim + c_dim, hidden)
        self.rnn = nn.GRU(emb_dim + z_dim + c_dim, hidden, batch_first=True)
        self.out = nn.Linear(hidden, vocab_size)

    def forward(self, tokens, z, c):
        code = torch.cat([z, c], dim=-1)
        h0 = torch.tanh(self.init_h(code)).unsqueeze(0)
        emb = self.embedding(tokens)
        inp = torch.cat([emb, code.unsqueeze(1).expand(-1, emb.size(1), -1)], dim=-1)
        out, _ = self.rnn(inp, h0)
        return self.out(out)

    def generate_soft(self, z, c, length, bos, temperature):
        code = torch.cat([z, c], dim=-1)
        h = torch.tanh(self.init_h(code)).unsqueeze(0)
        emb = self.embedding(torch.full((z.size(0), 1), bos, dtype=torch.long))
        probs = []
        for _ in range(length):
            inp = torch.cat([emb, code.unsqueeze(1)], dim=-1)
            out, h = self.rnn(inp, h)
            p = F.softmax(self.out(out) / temperature, dim=-1)
            probs.append(p)
            emb = p @ self.embedding.weight
        return torch.cat(probs, dim=1)


class Discriminator(nn.Module):
    def __init__(self, vocab_size, emb_dim, c_dim, n_filters=32, widths=(3, 4, 5)):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, emb_dim)
        self.convs = nn.ModuleList(nn.Conv1d(emb_dim, n_filters, w) for w in widths)
        self.fc = nn.Linear(n_filters * len(widths), c_dim)

    def forward_soft(self, probs):
        emb = (probs @ self.embedding.weight).transpose(1, 2)
        feats = [F.relu(conv(emb)).max(dim=-1).values for conv in self.convs]
        return self.fc(torch.cat(feats, dim=-1))

    def forward(self, tokens):
        return self.forward_soft(F.one_hot(tokens, self.embedding.num_embeddings).float())
