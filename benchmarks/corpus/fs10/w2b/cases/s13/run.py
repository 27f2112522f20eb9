import torch

from model import MaskedLightGCN
from trainer import Trainer


CONFIG = {
    "n_users": 40,
    "n_items": 60,
    "n_interactions": 400,
    "embedding_size": 16,
    "n_layers": 2,
    "learning_rate": 5e-3,
    "train_batch_size": 64,
    "epochs": 5,
    "lottery": True,
    "prune_every": 3,
    "prune_ratio": 0.2,
}


def build_dataset(cfg, seed=0):
    g = torch.Generator().manual_seed(seed)
    users = torch.randint(0, cfg["n_users"], (cfg["n_interactions"],), generator=g)
    items = torch.randint(0, cfg["n_items"], (cfg["n_interactions"],), generator=g)
    return torch.stack([users, items], dim=1)


def make_loader(cfg, interactions):
    def loader(epoch_idx):
        g = torch.Generator().manual_seed(100 + epoch_idx)
        order = torch.randperm(interactions.size(0), generator=g)
        bs = cfg["train_batch_size"]
        for start in range(0, order.numel(), bs):
            idx = order[start:start + bs]
            neg = torch.randint(0, cfg["n_items"], (idx.numel(),), generator=g)
            yield interactions[idx, 0], interactions[idx, 1], neg
    return loader


def main():
    torch.manual_seed(2020)
    interactions = build_dataset(CONFIG)
    model = MaskedLightGCN(CONFIG["n_users"], CONFIG["n_items"], interactions,
                           embedding_size=CONFIG["embedding_size"], n_layers=CONFIG["n_layers"],
                           prune_ratio=CONFIG["prune_ratio"])
    trainer = Trainer(CONFIG, model)
    trainer.fit(make_loader(CONFIG, interactions))
    return model, trainer


if __name__ == "__main__":
    model, trainer = main()
