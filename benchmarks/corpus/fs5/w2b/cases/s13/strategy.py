import torch
import torch.nn.functional as F


class FinetuneStrategy:
    def __init__(self, model, optimizer, train_mb_size=8, train_epochs=1, eval_every=-1,
                 peval_mode="iteration", device="cpu"):
        self.model = model
        self.optimizer = optimizer
        self.train_mb_size = train_mb_size
        self.train_epochs = train_epochs
        self.eval_every = eval_every
        self.peval_mode = peval_mode
        self.device = device
        self.clock_iter = 0
        self.peval_results = []

    def model_adaptation(self):
        backbone = self.model.backbone
        for p in backbone.parameters():
            p.requires_grad_(False)
        backbone.eval()

    def _peval(self, eval_streams):
        self.model.eval()
        correct, total = 0, 0
        with torch.no_grad():
            for x, y in eval_streams:
                pred = self.model(x).argmax(dim=1)
                correct += (pred == y).sum().item()
                total += y.numel()
        self.peval_results.append(correct / total)
        self.model.train()

    def _maybe_peval(self, eval_streams):
        if self.eval_every > 0 and self.clock_iter % self.eval_every == 0:
            self._peval(eval_streams)

    def training_epoch(self, experience, eval_streams):
        for x, y in experience:
            self.optimizer.zero_grad()
            logits = self.model(x)
            loss = F.cross_entropy(logits, y)
            loss.backward()
            self.optimizer.step()
            self.clock_iter += 1
            if self.peval_mode == "iteration":
                self._maybe_peval(eval_streams)

    def train(self, experience, eval_streams):
        self.model.train()
        self.model_adaptation()
        for _ in range(self.train_epochs):
            self.training_epoch(experience, eval_streams)
            if self.peval_mode == "epoch":
                self._maybe_peval(eval_streams)
