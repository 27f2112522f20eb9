import torch
import torch.optim as optim

from data import InputData
from model import MODELS

torch.manual_seed(0)

CONFIG = {
    "model": "cbow",
    "emb_dimension": 32,
    "batch_size": 16,
    "window_size": 2,
    "neg_count": 3,
    "iterations": 40,
    "initial_lr": 0.05,
}


class Word2Vec:
    def __init__(self, config):
        self.config = config
        self.data = InputData()
        self.model = MODELS[config["model"]](self.data.vocab_size, config["emb_dimension"])
        self.optimizer = optim.SGD(self.model.parameters(), lr=config["initial_lr"])

    def next_batch(self):
        if self.config["model"] == "cbow":
            return self.data.cbow_batch(self.config["batch_size"], self.config["window_size"], self.config["neg_count"])
        return self.data.skipgram_batch(self.config["batch_size"], self.config["window_size"], self.config["neg_count"])

    def train(self):
        total = self.config["iterations"]
        for i in range(total):
            pos_u, pos_v, neg_u, neg_v = self.next_batch()
            self.optimizer.zero_grad()
            loss = self.model(pos_u, pos_v, neg_u, neg_v)
            loss.backward()
            self.optimizer.step()
            if i % 10 == 0:
                print(f"iter {i} loss {loss.item():.4f}")
                lr = self.config["initial_lr"] * (1.0 - i / total)
                for group in self.optimizer.param_groups:
                    group["lr"] = lr


if __name__ == "__main__":
    w2v = Word2Vec(CONFIG)
    w2v.train()
