import torch
import torch.nn as nn
import torch.nn.functional as F

PAD = 0


class SentenceEncoder(nn.Module):
    def __init__(self, in_dim, mem_dim):
        super().__init__()
        self.rnn = nn.LSTM(in_dim, mem_dim, batch_first=True)

    def forward(self, embs, lengths):
        packed = nn.utils.rnn.pack_padded_sequence(embs, lengths, batch_first=True, enforce_sorted=False)
        _, (h, _) = self.rnn(packed)
        return h[-1]


class Similarity(nn.Module):
    def __init__(self, mem_dim, hidden_dim, num_classes):
        super().__init__()
        self.wh = nn.Linear(2 * mem_dim, hidden_dim)
        self.wp = nn.Linear(hidden_dim, num_classes)

    def forward(self, lvec, rvec):
        mult_dist = lvec * rvec
        abs_dist = torch.abs(lvec - rvec)
        vec_dist = torch.cat((mult_dist, abs_dist), 1)
        out = torch.sigmoid(self.wh(vec_dist))
        return F.log_softmax(self.wp(out), dim=1)


class SimilarityModel(nn.Module):
    def __init__(self, vocab_size, in_dim, mem_dim, hidden_dim, num_classes, sparsity, freeze):
        super().__init__()
        self.emb = nn.Embedding(vocab_size, in_dim, padding_idx=PAD, sparse=sparsity)
        if freeze:
            self.emb.weight.requires_grad = False
        self.encoder = SentenceEncoder(in_dim, mem_dim)
        self.similarity = Similarity(mem_dim, hidden_dim, num_classes)

    def forward(self, linputs, llens, rinputs, rlens):
        lstate = self.encoder(self.emb(linputs), llens)
        rstate = self.encoder(self.emb(rinputs), rlens)
        return self.similarity(lstate, rstate)
