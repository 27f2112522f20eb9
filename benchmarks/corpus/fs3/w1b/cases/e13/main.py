import warnings

import torch

from trainer import Stage2Trainer
from transformer import CodeTransformer
from vqvae import VQVAE

warnings.filterwarnings("ignore")

CFG = {
    "in_dim": 16,
    "code_dim": 32,
    "n_codes": 64,
    "block_size": 12,
    "d_model": 64,
    "n_heads": 4,
    "n_layers": 3,
    "dropout": 0.1,
    "use_checkpoint": True,
    "lr": 3e-4,
    "grad_clip": 1.0,
    "epochs": 1,
    "batch_size": 8,
}


def make_loader(cfg, n=32):
    g = torch.Generator().manual_seed(0)
    data = torch.randn(n, cfg["block_size"], cfg["in_dim"], generator=g)
    return [data[i:i + cfg["batch_size"]] for i in range(0, n, cfg["batch_size"])]


def main():
    torch.manual_seed(0)
    stage1 = VQVAE(CFG["in_dim"], CFG["code_dim"], CFG["n_codes"])
    stage1.eval()
    model = CodeTransformer(stage1.codebook, CFG)
    trainer = Stage2Trainer(stage1, model, CFG)
    trainer.fit(make_loader(CFG))


if __name__ == "__main__":
    main()
