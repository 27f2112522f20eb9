import torch
import torch.nn as nn


class MultimodalHRED(nn.Module):
    def __init__(self, vocab_size=50, emb_dim=16, hid_dim=32, image_dim=24, dropout=0.3):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, emb_dim)
        self.utterance_rnn = nn.GRU(emb_dim, hid_dim, batch_first=True)
        self.image_proj = nn.Linear(image_dim, hid_dim)
        self.context_rnn = nn.GRU(2 * hid_dim, hid_dim, batch_first=True)
        self.dropout = nn.Dropout(dropout)
        self.decoder = nn.GRU(emb_dim, hid_dim, batch_first=True)
        self.out = nn.Linear(hid_dim, vocab_size)

    def encode(self, context_tokens, images):
        b, turns, length = context_tokens.shape
        emb = self.dropout(self.embedding(context_tokens.view(b * turns, length)))
        _, h = self.utterance_rnn(emb)
        utt = h[-1].view(b, turns, -1)
        img = torch.tanh(self.image_proj(images))
        _, ctx = self.context_rnn(self.dropout(torch.cat([utt, img], dim=-1)))
        return ctx

    def forward(self, context_tokens, images, target_in):
        ctx = self.encode(context_tokens, images)
        dec, _ = self.decoder(self.dropout(self.embedding(target_in)), ctx)
        return self.out(self.dropout(dec))
