import torch
from torch.utils.data import DataLoader, TensorDataset

from model import GPT
from trainer import Trainer, TrainerConfig, create_optimizer

GPT_CONFIG = dict(vocab_size=128, block_size=32, n_layer=2, n_head=4, n_embd=64)


def get_train_objs(trainer_cfg):
    data = torch.randint(0, GPT_CONFIG["vocab_size"], (64, GPT_CONFIG["block_size"] + 1))
    dataset = TensorDataset(data[:, :-1], data[:, 1:])
    loader = DataLoader(dataset, batch_size=trainer_cfg.batch_size, shuffle=True)
    model = GPT(**GPT_CONFIG)
    optimizer = create_optimizer(model, trainer_cfg)
    return model, optimizer, loader


def main():
    torch.manual_seed(0)
    trainer_cfg = TrainerConfig()
    model, optimizer, loader = get_train_objs(trainer_cfg)
    trainer = Trainer(trainer_cfg, model, optimizer, loader)
    trainer.train()
    return model


if __name__ == "__main__":
    model = main()
