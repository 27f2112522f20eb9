import torch

from trainer import Trainer
from tsan import TSAN

ARGS = {
    "n_feats": 16,
    "n_colors": 3,
    "n_denselayer": 2,
    "n_blocks": 2,
    "scale": 2,
    "rgb_range": 1,
    "lr": 1e-4,
    "patch_size": 32,
    "batch_size": 2,
}


def make_loader(args, n_batches=2):
    g = torch.Generator().manual_seed(0)
    for _ in range(n_batches):
        hr = torch.rand(args["batch_size"], 3, args["patch_size"], args["patch_size"], generator=g)
        lr = torch.nn.functional.interpolate(hr, scale_factor=1 / args["scale"], mode="bicubic",
                                             align_corners=False)
        yield lr, hr


def main():
    torch.manual_seed(0)
    model = TSAN(ARGS)
    Trainer(ARGS, model, make_loader(ARGS)).train()


if __name__ == "__main__":
    main()
