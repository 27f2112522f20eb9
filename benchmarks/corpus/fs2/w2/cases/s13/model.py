import torch
import torch.nn as nn
import torch.nn.functional as F


def l2norm(x):
    return x / x.pow(2).sum(dim=1, keepdim=True).sqrt().clamp(min=1e-8)


class EncoderImagePrecomp(nn.Module):
    def __init__(self, img_dim, embed_size, dropout=0.3):
        super().__init__()
        self.fc1 = nn.Linear(img_dim, 2 * embed_size)
        self.bn = nn.BatchNorm1d(2 * embed_size)
        self.drop = nn.Dropout(dropout)
        self.fc2 = nn.Linear(2 * embed_size, embed_size)

    def forward(self, images):
        x = self.drop(F.relu(self.bn(self.fc1(images))))
        return l2norm(self.fc2(x))


class EncoderText(nn.Module):
    def __init__(self, vocab_size, word_dim, embed_size):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, word_dim)
        self.rnn = nn.GRU(word_dim, embed_size, batch_first=True)

    def forward(self, captions):
        out, _ = self.rnn(self.embed(captions))
        return l2norm(out[:, -1])


class ContrastiveLoss(nn.Module):
    def __init__(self, margin=0.2, max_violation=True):
        super().__init__()
        self.margin = margin
        self.max_violation = max_violation

    def forward(self, im, s):
        scores = im @ s.t()
        diagonal = scores.diag().view(im.size(0), 1)
        cost_s = (self.margin + scores - diagonal).clamp(min=0)
        cost_im = (self.margin + scores - diagonal.t()).clamp(min=0)
        mask = torch.eye(scores.size(0), dtype=torch.bool)
        cost_s = cost_s.masked_fill(mask, 0)
        cost_im = cost_im.masked_fill(mask, 0)
        if self.max_violation:
            cost_s = cost_s.max(1)[0]
            cost_im = cost_im.max(0)[0]
        return cost_s.sum() + cost_im.sum()


class VSE:
    def __init__(self, opt):
        self.img_enc = EncoderImagePrecomp(opt["img_dim"], opt["embed_size"])
        self.txt_enc = EncoderText(opt["vocab_size"], opt["word_dim"], opt["embed_size"])
        self.criterion = ContrastiveLoss(margin=opt["margin"], max_violation=True)
        params = list(self.txt_enc.parameters()) + list(self.img_enc.parameters())
        self.optimizer = torch.optim.Adam(params, lr=opt["learning_rate"])
        self.Eiters = 0

    def train_start(self):
        self.img_enc.train()
        self.txt_enc.train()

    def val_start(self):
        self.img_enc.eval()
        self.txt_enc.eval()

    def forward_emb(self, images, captions):
        return self.img_enc(images), self.txt_enc(captions)

    def train_emb(self, images, captions):
        self.Eiters += 1
        img_emb, cap_emb = self.forward_emb(images, captions)
        self.optimizer.zero_grad()
        loss = self.criterion(img_emb, cap_emb)
        loss.backward()
        self.optimizer.step()
        return loss.item()
