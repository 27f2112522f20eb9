import torch
import torch.nn.functional as F

import hypergrad
from models import build_model

ARGS = {
    "arch": "googlenet_comp",
    "num_classes": 10,
    "image_size": 32,
    "batch_size": 4,
    "rounds": 2,
    "K": 2,
    "inner_steps": 2,
    "inner_lr": 0.1,
    "outer_lr": 1e-3,
    "eps": 8 / 255,
}


def unlearn(model, x, y, args):
    outer_opt = torch.optim.Adam(model.parameters(), lr=args["outer_lr"])

    def outer_loss(params, hparams):
        return F.cross_entropy(model(x + params[0]), y)

    def fp_map(params, hparams):
        inner = -F.cross_entropy(model(x + params[0]), y)
        g = torch.autograd.grad(inner, params, create_graph=True)
        return [w - args["inner_lr"] * gw for w, gw in zip(params, g)]

    for r in range(args["rounds"]):
        pert = torch.zeros(1, 3, args["image_size"], args["image_size"], requires_grad=True)
        for _ in range(args["inner_steps"]):
            loss = -F.cross_entropy(model(x + pert), y)
            (g,) = torch.autograd.grad(loss, pert)
            with torch.no_grad():
                pert -= args["inner_lr"] * g.sign()
                pert.clamp_(-args["eps"], args["eps"])

        outer_opt.zero_grad()
        hypergrad.fixed_point([pert], list(model.parameters()), args["K"], fp_map, outer_loss)
        outer_opt.step()
        with torch.no_grad():
            print(f"round {r} clean loss {F.cross_entropy(model(x), y).item():.4f}")


def main(args):
    torch.manual_seed(0)
    model = build_model(args["arch"], args["num_classes"])
    model.eval()
    x = torch.rand(args["batch_size"], 3, args["image_size"], args["image_size"])
    y = torch.randint(0, args["num_classes"], (args["batch_size"],))
    unlearn(model, x, y, args)


if __name__ == "__main__":
    main(ARGS)
