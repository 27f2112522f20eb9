import torch

from data import batches, prepare_data, random_corpus
from model import Seq2Seq

CONFIG = {"vocab": 50, "batch_size": 16, "epochs": 2, "lr": 1e-3, "valid_freq": 4}


def loss_validation(model, valid_corpus, batch_size):
    model.eval()
    total, n = 0.0, 0
    for seqs_x, seqs_y in batches(valid_corpus, batch_size):
        x, y = prepare_data(seqs_x, seqs_y, eval=True)
        total += model.nll(x, y).item()
        n += 1
    model.train()
    return total / max(n, 1)


def to_tensors(seqs_x, seqs_y):
    def pad(samples):
        max_len = max(len(s) for s in samples)
        return torch.tensor([s + [0] * (max_len - len(s)) for s in samples], dtype=torch.long)
    return pad(seqs_x), pad(seqs_y)


def train(config):
    torch.manual_seed(0)
    train_corpus = random_corpus(128, config["vocab"], seed=1)
    valid_corpus = random_corpus(32, config["vocab"], seed=2)
    model = Seq2Seq(config["vocab"])
    optim = torch.optim.Adam(model.parameters(), lr=config["lr"])
    uidx = 0
    for eidx in range(config["epochs"]):
        for seqs_x, seqs_y in batches(train_corpus, config["batch_size"]):
            x, y = to_tensors(seqs_x, seqs_y)
            loss = model.nll(x, y)
            optim.zero_grad()
            loss.backward()
            optim.step()
            uidx += 1
            if uidx % config["valid_freq"] == 0:
                valid_loss = loss_validation(model, valid_corpus, config["batch_size"])
                print(f"epoch {eidx} step {uidx} train={loss.item():.4f} valid={valid_loss:.4f}")


if __name__ == "__main__":
    train(CONFIG)
