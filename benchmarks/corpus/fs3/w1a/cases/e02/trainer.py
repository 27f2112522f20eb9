"""Training loop with optional truncated BPTT over the target side."""
import torch
import torch.nn as nn


class NMTLossCompute(nn.Module):
    def __init__(self, generator, padding_idx=0):
        super().__init__()
        self.generator = generator
        self.criterion = nn.NLLLoss(ignore_index=padding_idx, reduction="sum")

    def forward(self, output, target):
        scores = self.generator(output.view(-1, output.size(2)))
        gtruth = target.reshape(-1)
        loss = self.criterion(scores, gtruth)
        n_words = gtruth.ne(0).sum().item()
        return loss, n_words


class Trainer:
    def __init__(self, model, loss_compute, optim, trunc_size=0):
        self.model = model
        self.loss_compute = loss_compute
        self.optim = optim
        self.trunc_size = trunc_size

    def train_batch(self, src, tgt):
        target_size = tgt.size(0)
        trunc_size = self.trunc_size if self.trunc_size else target_size
        dec_state = None
        total_loss, total_words = 0.0, 0
        for j in range(0, target_size - 1, trunc_size):
            tgt_chunk = tgt[j: j + trunc_size]
            gold = tgt[j + 1: j + 1 + trunc_size]
            tgt_chunk = tgt_chunk[: gold.size(0)]
            self.optim.zero_grad()
            outputs, attns, dec_state = self.model(src, tgt_chunk, dec_state)
            loss, n_words = self.loss_compute(outputs, gold)
            (loss / n_words).backward()
            self.optim.step()
            total_loss += loss.item()
            total_words += n_words
            if dec_state is not None:
                dec_state.detach()
        return total_loss / max(total_words, 1)

    def train_epoch(self, batches, epoch):
        self.model.train()
        for step, (src, tgt) in enumerate(batches):
            nll = self.train_batch(src, tgt)
            print(f"epoch {epoch} step {step}: nll/word {nll:.4f}")
