import argparse

import torch

from models import create_model
from trains.mot import train_factory


def parse_opts(args=None):
    parser = argparse.ArgumentParser()
    parser.add_argument("--task", default="mot")
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--num_epochs", type=int, default=2)
    parser.add_argument("--num_iters", type=int, default=-1)
    parser.add_argument("--batch_size", type=int, default=4)
    parser.add_argument("--head_conv", type=int, default=32)
    parser.add_argument("--reid_dim", type=int, default=16)
    parser.add_argument("--nID", type=int, default=12)
    parser.add_argument("--hm_weight", type=float, default=1.0)
    parser.add_argument("--wh_weight", type=float, default=0.1)
    parser.add_argument("--off_weight", type=float, default=1.0)
    parser.add_argument("--multi_loss", default="uncertainty")
    parser.add_argument("--K", type=int, default=8)
    opt = parser.parse_args(args)
    opt.heads = {"hm": 1, "wh": 4, "reg": 2, "id": opt.reid_dim}
    return opt


def make_loader(opt, n_batches, size=32):
    out = size // 4
    batches = []
    for _ in range(n_batches):
        b = opt.batch_size
        hm = torch.rand(b, 1, out, out) * 0.5
        ind = torch.randint(0, out * out, (b, opt.K))
        hm.view(b, -1).scatter_(1, ind, 1.0)
        batches.append({
            "input": torch.randn(b, 3, size, size),
            "hm": hm,
            "reg_mask": (torch.rand(b, opt.K) > 0.3).float(),
            "ind": ind,
            "wh": torch.rand(b, opt.K, 4) * 8,
            "reg": torch.rand(b, opt.K, 2),
            "ids": torch.randint(0, opt.nID, (b, opt.K)),
        })
    return batches


def main(opt):
    torch.manual_seed(317)
    model = create_model(opt.heads, opt.head_conv)
    optimizer = torch.optim.Adam(model.parameters(), opt.lr)
    Trainer = train_factory[opt.task]
    trainer = Trainer(opt, model, optimizer)
    train_loader = make_loader(opt, 4)
    for epoch in range(1, opt.num_epochs + 1):
        log_dict_train, _ = trainer.train(epoch, train_loader)
        print("epoch {}: ".format(epoch)
              + " | ".join("{} {:.4f}".format(k, v) for k, v in log_dict_train.items()))
    return trainer


if __name__ == "__main__":
    opt = parse_opts()
    trainer = main(opt)
