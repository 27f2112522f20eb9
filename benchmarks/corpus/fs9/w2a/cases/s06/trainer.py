import torch
import torch.nn.functional as F

from evaluator import Evaluator


class SupervisedTrainer:
    def __init__(self, model, lr=1e-3, checkpoint_every=4, pad_id=0):
        self.model = model
        self.pad_id = pad_id
        self.checkpoint_every = checkpoint_every
        self.evaluator = Evaluator(pad_id=pad_id)
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)
        self.history = []

    def _train_batch(self, src, tgt):
        log_probs = self.model(src, tgt[:, :-1])
        loss = F.nll_loss(log_probs.transpose(1, 2), tgt[:, 1:], ignore_index=self.pad_id)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item()

    def train(self, train_data, dev_data, n_epochs):
        step = 0
        for epoch in range(n_epochs):
            self.model.train(True)
            for src, tgt in train_data:
                step += 1
                loss = self._train_batch(src, tgt)
                if step % self.checkpoint_every == 0:
                    dev_loss, acc = self.evaluator.evaluate(self.model, dev_data)
                    self.history.append((step, loss, dev_loss, acc))
                    print(f"step {step}: train {loss:.4f} dev {dev_loss:.4f} acc {acc:.3f}")
