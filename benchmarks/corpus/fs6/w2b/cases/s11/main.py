import argparse

import torch
from torch.utils.data import DataLoader, Dataset

from model import GPT, GPTConfig, create_optimizer
from trainer import Trainer, TrainerConfig


class CharDataset(Dataset):
    def __init__(self, data, block_size):
        self.data = data
        self.block_size = block_size

    def __len__(self):
        return len(self.data) - self.block_size - 1

    def __getitem__(self, idx):
        chunk = self.data[idx: idx + self.block_size + 1]
        return chunk[:-1], chunk[1:]


def get_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--max_epochs", type=int, default=2)
    parser.add_argument("--batch_size", type=int, default=16)
    parser.add_argument("--grad_norm_clip", type=float, default=1.0)
    parser.add_argument("--no_amp", dest="use_amp", action="store_false")
    return parser.parse_args()


def main():
    args = get_args()
    torch.manual_seed(0)
    gpt_cfg = GPTConfig()
    corpus = torch.randint(0, gpt_cfg.vocab_size, (81,))
    dataset = CharDataset(corpus, gpt_cfg.block_size)
    loader = DataLoader(dataset, batch_size=args.batch_size, shuffle=True)

    model = GPT(gpt_cfg)
    train_cfg = TrainerConfig(max_epochs=args.max_epochs, batch_size=args.batch_size,
                              grad_norm_clip=args.grad_norm_clip, use_amp=args.use_amp)
    optimizer = create_optimizer(model, train_cfg)
    trainer = Trainer(train_cfg, model, optimizer, loader)
    trainer.train()
    return trainer


if __name__ == "__main__":
    trainer = main()
