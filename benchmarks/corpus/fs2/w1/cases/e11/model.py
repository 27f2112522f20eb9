import torch
import torch.nn as nn
import torch.nn.functional as F


class Encoder(nn.Module):
    def __init__(self, vocab, emb_dim, hidden, max_norm, dropout):
        super().__init__()
        self.embedding = nn.Embedding(vocab, emb_dim, padding_idx=0, max_norm=max_norm)
        self.rnn = nn.GRU(emb_dim, hidden, batch_first=True, bidirectional=True)
        self.bridge = nn.Linear(2 * hidden, hidden)
        self.dropout = nn.Dropout(dropout)

    def forward(self, src):
        out, h = self.rnn(self.dropout(self.embedding(src)))
        h = torch.tanh(self.bridge(torch.cat([h[0], h[1]], dim=-1)))
        return out, h


class AttnDecoder(nn.Module):
    def __init__(self, vocab, emb_dim, hidden, max_norm, dropout, tie_embeddings):
        super().__init__()
        self.embedding = nn.Embedding(vocab, emb_dim, padding_idx=0, max_norm=max_norm)
        self.cell = nn.GRUCell(emb_dim + 2 * hidden, hidden)
        self.attn = nn.Linear(hidden, 2 * hidden, bias=False)
        self.pre_out = nn.Linear(hidden + 2 * hidden, emb_dim)
        self.tie_embeddings = tie_embeddings
        if not tie_embeddings:
            self.out = nn.Linear(emb_dim, vocab)
        self.dropout = nn.Dropout(dropout)

    def step(self, tok, h, enc_out):
        emb = self.dropout(self.embedding(tok))
        scores = torch.bmm(enc_out, self.attn(h).unsqueeze(-1)).squeeze(-1)
        ctx = torch.bmm(F.softmax(scores, dim=-1).unsqueeze(1), enc_out).squeeze(1)
        h = self.cell(torch.cat([emb, ctx], dim=-1), h)
        feat = torch.tanh(self.pre_out(torch.cat([h, ctx], dim=-1)))
        if self.tie_embeddings:
            logits = F.linear(feat, self.embedding.weight)
        else:
            logits = self.out(feat)
        return logits, h


class Seq2Seq(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        max_norm = cfg["embedding_max_norm"]
        self.encoder = Encoder(cfg["src_vocab"], cfg["emb_dim"], cfg["hidden"], max_norm, cfg["dropout"])
        self.decoder = AttnDecoder(cfg["tgt_vocab"], cfg["emb_dim"], cfg["hidden"], max_norm,
                                   cfg["dropout"], cfg["tie_decoder_embeddings"])

    def forward(self, src, tgt_in):
        enc_out, h = self.encoder(src)
        logits = []
        for t in range(tgt_in.size(1)):
            step_logits, h = self.decoder.step(tgt_in[:, t], h, enc_out)
            logits.append(step_logits)
        return torch.stack(logits, dim=1)
