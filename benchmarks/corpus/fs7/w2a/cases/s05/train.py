import argparse

import numpy as np
import torch
import torch.nn as nn

from loss import MultipleChoiceLossCompute
from model_pytorch import ClfHead, LMHead, TransformerModel


def warmup_linear(x, warmup=0.002):
    s = 1 if x <= warmup else 0
    return s * (x / warmup) + (1 - s) * (1 - x)


class OpenAIAdam(torch.optim.Adam):
    def __init__(self, params, lr, schedule, warmup, t_total, b1=0.9, b2=0.999, e=1e-8, l2=0.01):
        super().__init__(params, lr=lr, betas=(b1, b2), eps=e, weight_decay=l2)
        self.schedule, self.warmup, self.t_total, self.base_lr = schedule, warmup, t_total, lr
        self.n_updates = 0

    def step(self, closure=None):
        self.n_updates += 1
        for group in self.param_groups:
            group["lr"] = self.base_lr * self.schedule(self.n_updates / self.t_total, self.warmup)
        return super().step(closure)


def transform_roc(rng, n_batch, n_ctx, n_vocab, n_special, clf_token):
    xmb = np.zeros((n_batch, 2, n_ctx, 2), dtype=np.int64)
    mmb = np.zeros((n_batch, 2, n_ctx), dtype=np.float32)
    for i in range(n_batch):
        for j in range(2):
            length = rng.integers(n_ctx // 2, n_ctx)
            xmb[i, j, : length - 1, 0] = rng.integers(0, n_vocab, length - 1)
            xmb[i, j, length - 1, 0] = clf_token
            mmb[i, j, :length] = 1
    xmb[:, :, :, 1] = np.arange(n_vocab + n_special, n_vocab + n_special + n_ctx)
    ymb = rng.integers(0, 2, n_batch)
    return torch.from_numpy(xmb), torch.from_numpy(mmb), torch.from_numpy(ymb)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--n_iter", type=int, default=8)
    parser.add_argument("--n_batch", type=int, default=4)
    parser.add_argument("--lr", type=float, default=6.25e-4)
    parser.add_argument("--lm_coef", type=float, default=0.5)
    parser.add_argument("--seed", type=int, default=42)
    args = parser.parse_args()

    cfg = {"n_embd": 48, "n_head": 4, "n_layer": 2, "embd_pdrop": 0.1,
           "attn_pdrop": 0.1, "clf_pdrop": 0.1}
    n_vocab, n_special, n_ctx = 100, 3, 16
    clf_token = n_vocab + 2
    vocab = n_vocab + n_special + n_ctx

    np.random.seed(args.seed)
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)

    model = TransformerModel(cfg, vocab=vocab, n_ctx=n_ctx)
    lm_head = LMHead(model, cfg)
    clf_head = ClfHead(clf_token, cfg)

    criterion = nn.CrossEntropyLoss(reduction="none")
    model_opt = OpenAIAdam(model.parameters(), lr=args.lr, schedule=warmup_linear,
                           warmup=0.002, t_total=args.n_iter * 2, l2=0.01)
    compute_loss_fct = MultipleChoiceLossCompute(criterion, criterion, args.lm_coef, model_opt)

    for n_updates in range(args.n_iter):
        model.train()
        xmb, mmb, ymb = transform_roc(rng, args.n_batch, n_ctx, n_vocab, n_special, clf_token)
        h = model(xmb)
        lm_logits = lm_head(h)
        clf_logits = clf_head(h, xmb)
        cost = compute_loss_fct(xmb, ymb, mmb, clf_logits, lm_logits)
        if n_updates % 4 == 0:
            print("%d %.3f" % (n_updates, cost))
    return model, clf_head


if __name__ == "__main__":
    model, clf_head = main()
