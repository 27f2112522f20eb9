import numpy as np
import torch

from config import CONFIG
from models import get_model
from trainer import Trainer


class Dataset:
    def __init__(self, config):
        rng = np.random.default_rng(config["seed"])
        self.user_num = config["n_users"]
        self.item_num = config["n_items"]
        dim = config["embedding_size"]
        self.preloaded = {
            "pretrained_user_emb": rng.normal(0, 0.1, (self.user_num, dim)),
            "pretrained_item_emb": rng.normal(0, 0.1, (self.item_num, dim)),
        }
        n = 512
        self.users = torch.from_numpy(rng.integers(0, self.user_num, n))
        self.items = torch.from_numpy(rng.integers(0, self.item_num, n))
        self.negs = torch.from_numpy(rng.integers(0, self.item_num, n))


def data_loader(dataset, batch_size):
    for i in range(0, len(dataset.users), batch_size):
        yield {"user_id": dataset.users[i:i + batch_size],
               "item_id": dataset.items[i:i + batch_size],
               "neg_item_id": dataset.negs[i:i + batch_size]}


class ReusableLoader:
    def __init__(self, dataset, batch_size):
        self.dataset, self.batch_size = dataset, batch_size

    def __iter__(self):
        return data_loader(self.dataset, self.batch_size)


def main():
    torch.manual_seed(CONFIG["seed"])
    dataset = Dataset(CONFIG)
    model = get_model(CONFIG["model"])(CONFIG, dataset)
    trainer = Trainer(CONFIG, model)
    train_data = ReusableLoader(dataset, CONFIG["train_batch_size"])
    best_valid_score = trainer.fit(train_data)
    print("best valid", best_valid_score)


if __name__ == "__main__":
    main()
