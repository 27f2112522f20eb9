import torch

from model import Model
from prediction import validate_on_data

CONFIG = {
    "model": {"vocab": 40, "emb": 32, "hidden": 64, "dropout": 0.3},
    "training": {"epochs": 3, "batch_size": 16, "learning_rate": 1e-3,
                 "validation_freq": 5, "clip_grad_norm": 1.0},
}


class TrainStatistics:
    def __init__(self):
        self.steps = 0
        self.best_ckpt_score = float("inf")


class TrainManager:
    def __init__(self, model, train_cfg):
        self.model = model
        self.batch_size = train_cfg["batch_size"]
        self.epochs = train_cfg["epochs"]
        self.validation_freq = train_cfg["validation_freq"]
        self.clip_grad_norm = train_cfg["clip_grad_norm"]
        self.optimizer = torch.optim.Adam(model.parameters(), lr=train_cfg["learning_rate"])
        self.stats = TrainStatistics()

    def make_batches(self, data, epoch_no):
        g = torch.Generator().manual_seed(epoch_no)
        order = torch.randperm(data["src"].size(0), generator=g)
        for start in range(0, len(order), self.batch_size):
            idx = order[start:start + self.batch_size]
            yield data["src"][idx], data["trg"][idx]

    def _train_step(self, src, trg):
        batch_loss = self.model.get_loss_for_batch(src, trg)
        batch_loss.backward()
        torch.nn.utils.clip_grad_norm_(self.model.parameters(), self.clip_grad_norm)
        self.optimizer.step()
        self.optimizer.zero_grad()
        self.stats.steps += 1
        return batch_loss.item()

    def _validate(self, valid_data, epoch_no):
        score = validate_on_data(self.model, valid_data, self.batch_size)
        if score < self.stats.best_ckpt_score:
            self.stats.best_ckpt_score = score
        print(f"epoch {epoch_no + 1} step {self.stats.steps}: valid loss {score:.4f}")

    def train_and_validate(self, train_data, valid_data):
        for epoch_no in range(self.epochs):
            self.model.train()
            epoch_loss = 0.0
            for src, trg in self.make_batches(train_data, epoch_no):
                epoch_loss += self._train_step(src, trg)
                if self.stats.steps % self.validation_freq == 0:
                    self._validate(valid_data, epoch_no)
            print(f"epoch {epoch_no + 1}: train loss {epoch_loss:.4f}")


def load_data(n, seed):
    g = torch.Generator().manual_seed(seed)
    src = torch.randint(3, 40, (n, 12), generator=g)
    trg = torch.cat([torch.ones(n, 1, dtype=torch.long), src.flip(1)], dim=1)
    return {"src": src, "trg": trg}


def train(cfg):
    torch.manual_seed(42)
    train_data = load_data(128, 1)
    valid_data = load_data(32, 2)
    model = Model(cfg["model"])
    trainer = TrainManager(model, cfg["training"])
    trainer.train_and_validate(train_data, valid_data)
    return model, trainer


if __name__ == "__main__":
    model, trainer = train(CONFIG)
